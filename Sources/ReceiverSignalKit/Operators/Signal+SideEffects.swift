// SwiftSignalKit's Signal_SideEffects.swift: code run at points of a start, which sends what it
// sent. `afterNext` and `beforeStarted` only reshape a start (Signal+Mapping.swift). The others
// have a subscriber per start, as in SwiftSignalKit, because when their function runs against the
// start's end shows: nothing follows a function that disposed the start, `afterCompleted` runs
// after the upstream was disposed, `afterDisposed` and `withState` when the start is torn down.

/// Calls `f` with each value just before passing it on (not passed on if `f` disposed the start).
///
/// ```swift
/// search |> beforeNext { print("got \($0)") }
/// ```
///
/// - Parameter f: Called with each value; its result is ignored.
/// - Returns: A function from a signal to the same signal.
@inlinable public func beforeNext<T, E, R>(_ f: @escaping (T) -> R) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            signal.run(
                { value in
                    _ = f(value)
                    subscriber.putNext(value)  // dropped if `f` disposed the start
                }, { subscriber.putError($0) }, { subscriber.putCompletion() })
        }
    }
}

/// Calls `f` with each value just after passing it on — also when passing it on ended the start
/// (say, through a `take(1)` downstream).
///
/// ```swift
/// updates |> afterNext { _ in log.flush() }
/// ```
///
/// - Parameter f: Called with each value; its result is ignored.
/// - Returns: A function from a signal to the same signal.
@inlinable public func afterNext<T, E, R>(_ f: @escaping (T) -> R) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal(start: { next, error, completed in
            signal.run(
                { value in
                    next?(value)
                    _ = f(value)
                }, error, completed)
        })
    }
}

/// Calls `f` at each start, before the upstream signal starts.
///
/// ```swift
/// request |> beforeStarted { spinner.show() }
/// ```
///
/// - Parameter f: Called once per start.
/// - Returns: A function from a signal to the same signal.
@inlinable public func beforeStarted<T, E>(_ f: @escaping () -> Void) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal(start: { next, error, completed in
            f()
            return signal.run(next, error, completed)
        })
    }
}

/// Calls `f` when a start completes, just before passing the completion on (not on an error,
/// not on disposal, and not once the start has ended: say, when the value just before the
/// completion made a `take(1)` downstream complete).
///
/// ```swift
/// upload |> beforeCompleted { progress.finish() }
/// ```
///
/// - Parameter f: Called once per completed start.
/// - Returns: A function from a signal to the same signal.
@inlinable public func beforeCompleted<T, E>(_ f: @escaping () -> Void) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            signal.run(
                { subscriber.putNext($0) }, { subscriber.putError($0) },
                {
                    f()
                    subscriber.putCompletion()
                })
        }
    }
}

/// Calls `f` when a start completes, just after passing the completion on (not on an error, not
/// on disposal). As in SwiftSignalKit, passing the completion on ends the start, which disposes
/// the upstream start: `f` runs after that.
///
/// ```swift
/// upload |> afterCompleted { cache.trim() }
/// // the completion handler, the upload's disposable disposed, then cache.trim()
/// ```
///
/// - Parameter f: Called once per completed start.
/// - Returns: A function from a signal to the same signal.
@inlinable public func afterCompleted<T, E>(_ f: @escaping () -> Void) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            signal.run(
                { subscriber.putNext($0) }, { subscriber.putError($0) },
                {
                    subscriber.putCompletion()  // ends this start, which disposes the upstream's
                    f()
                })
        }
    }
}

/// Calls `f` once when a start is torn down — disposed, or ended by an error or completion —
/// after the upstream start has been disposed.
///
/// ```swift
/// request |> afterDisposed { spinner.hide() }
/// ```
///
/// - Parameter f: Called once per start; its result is ignored.
/// - Returns: A function from a signal to the same signal.
@inlinable public func afterDisposed<T, E, R>(_ f: @escaping () -> R) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            let upstream = signal.run(
                { subscriber.putNext($0) }, { subscriber.putError($0) }, { subscriber.putCompletion() })
            // The subscriber disposes this once: on the start's disposal or after its end.
            return ActionDisposable {
                upstream.dispose()
                _ = f()
            }
        }
    }
}

/// Gives each start a state made by `initialState`, and calls the handlers with it at each event
/// (before passing the event on) and `disposed` after the start is torn down.
///
/// ```swift
/// withState(download, { Stopwatch() }, completed: { $0.log("done") }, disposed: { $0.stop() })
/// ```
///
/// - Parameters:
///   - signal: The upstream signal.
///   - initialState: Called once per start, before the upstream starts.
///   - next: Called with each value and the state, before the value is passed on.
///   - error: Called with the error and the state, before the error is passed on.
///   - completed: Called with the state before the completion is passed on.
///   - disposed: Called with the state once the start is torn down (disposed, or ended by an
///     error or completion), after the upstream start has been disposed.
/// - Returns: The same signal.
@inlinable public func withState<T, E, S>(
    _ signal: Signal<T, E>,
    _ initialState: @escaping () -> S,
    next: @escaping (T, S) -> Void = { _, _ in },
    error: @escaping (E, S) -> Void = { _, _ in },
    completed: @escaping (S) -> Void = { _ in },
    disposed: @escaping (S) -> Void = { _ in }
) -> Signal<T, E> {
    Signal { subscriber in
        let state = initialState()
        let upstream = signal.run(
            { value in
                next(value, state)
                subscriber.putNext(value)
            },
            { failure in
                error(failure, state)
                subscriber.putError(failure)
            },
            {
                completed(state)
                subscriber.putCompletion()
            }
        )
        // The subscriber disposes this once: on the start's disposal or after its end.
        return ActionDisposable {
            upstream.dispose()
            disposed(state)
        }
    }
}
