// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (SwiftSignalKit's own names, kept so that its client code compiles.)
// The folds of SwiftSignalKit's Signal_Reduce.swift. Each start has a subscriber of its own: the
// synchronous folds put the fold and the completion in one call (and `f` may emit several values
// in one), so once a handler has disposed the start the rest is dropped; the queued one runs a
// signal per value and has a lock of its own too (QueuedFold, below).

/// Folds the values of each start into one, sent when the start completes.
///
/// ```swift
/// numbers |> reduceLeft(value: 0, f: +)   // 1, 2, 3, completion -> 6, completion
/// ```
///
/// - Parameters:
///   - value: The accumulator a start begins with (sent alone if the start has no value).
///   - f: Called with `(accumulator, value)` for each value; returns the new accumulator.
/// - Returns: A function from a signal to the signal of its fold. An error is passed on without
///   a value.
@inlinable public func reduceLeft<T, E>(value: T, f: @escaping (T, T) -> T) -> (_ signal: Signal<T, E>) -> Signal<T, E>
{
    { signal in
        Signal { subscriber in
            // This start's accumulator, touched only by the upstream's handlers (calls never overlap).
            var accumulator = value
            return signal.run(
                { accumulator = f(accumulator, $0) }, { subscriber.putError($0) },
                {
                    subscriber.putNext(accumulator)
                    subscriber.putCompletion()
                })
        }
    }
}

/// Folds the values of each start into one, sent when the start completes; `f` may also send
/// values along the way through its third argument.
///
/// ```swift
/// numbers |> reduceLeft(value: 0, f: { sum, value, emit in
///     if value < 0 { emit(sum) }   // report the running sum at each negative value
///     return sum + value
/// })
/// ```
///
/// - Parameters:
///   - value: The accumulator a start begins with.
///   - f: Called with `(accumulator, value, emit)` for each value; returns the new accumulator.
///     `emit` sends a value downstream at once.
/// - Returns: A function from a signal to the signal of what `f` emits, then the fold. An error
///   is passed on without the fold.
@inlinable public func reduceLeft<T, E>(value: T, f: @escaping (T, T, (T) -> Void) -> T) -> (_ signal: Signal<T, E>) ->
    Signal<T, E>
{
    { signal in
        Signal { subscriber in
            // This start's accumulator, touched only by the upstream's handlers (calls never overlap).
            var accumulator = value
            return signal.run(
                { accumulator = f(accumulator, $0, { subscriber.putNext($0) }) }, { subscriber.putError($0) },
                {
                    subscriber.putNext(accumulator)
                    subscriber.putCompletion()
                })
        }
    }
}

/// Whether one step of the queued ``reduceLeft(_:generator:)`` sends a value.
///
/// ```swift
/// .single((sum + value, value > 100 ? .Some(sum + value) : .None))
/// ```
public enum Passthrough<T> {
    /// The step sends nothing.
    case None
    /// The step sends this value.
    case Some(T)
}

extension Passthrough: Sendable where T: Sendable {}

/// Folds the values of each start with a signal per value: `generator(accumulator, value)` runs
/// one at a time, in order (values that arrive meanwhile wait in a queue), and every
/// `(accumulator, passthrough)` it sends updates the accumulator and, for `.Some(v)`, sends `v`.
/// When the upstream has completed and the queue is empty, the accumulator is sent, then
/// completion.
///
/// ```swift
/// ids |> reduceLeft([], generator: { loaded, id in
///     fetch(id) |> map { item in (loaded + [item], .Some(loaded + [item])) }
/// })
/// ```
///
/// - Parameters:
///   - value: The accumulator a start begins with.
///   - generator: Called with `(accumulator, value)` for each value, once the previous step
///     has completed; its error ends the start.
/// - Returns: A function from a signal to the signal of what the steps pass through, then the
///   fold. An error of the upstream or of a step is passed on without the fold. Disposing the
///   start disposes the running step, then the upstream start.
@inlinable public func reduceLeft<T, E>(
    _ value: T, generator: @escaping (T, T) -> Signal<(T, Passthrough<T>), E>
) -> (_ signal: Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            let fold = QueuedFold(value, generator: generator, subscriber: subscriber)
            let upstream = signal.run({ fold.enqueue($0) }, { subscriber.putError($0) }, { fold.finishWhenIdle() })
            // Not the fold: it holds the subscriber, whose start holds this disposable, so a start
            // whose handle is dropped would never be freed. The upstream's handlers hold the fold
            // while the upstream runs, as in SwiftSignalKit.
            let step = fold.step
            return ActionDisposable {
                step.dispose()
                upstream.dispose()
            }
        }
    }
}

/// One start of the queued ``reduceLeft(_:generator:)``: the accumulator, the values waiting for
/// their step, and which step runs. Steps complete on any thread, so the state is locked; its
/// transitions return what to run next, which runs after unlocking. A step that completes while it
/// is being started is continued by the loop in `run(_:)`, not recursively.
@usableFromInline final class QueuedFold<T, E> {
    /// What to do after a transition.
    enum Action {
        case nothing
        case step(accumulator: T, value: T)
        case finish(T)
    }

    struct State {
        var accumulator: T
        var queued: [T] = []
        /// A step has been started and has not completed.
        var running = false
        /// `run(_:)` is inside the running step's `start`.
        var starting = false
        /// The running step completed while `starting`; `run(_:)` continues for it.
        var completedWhileStarting = false
        var upstreamCompleted = false

        /// After a step completed: the next queued value's step, or the end if the upstream
        /// has completed, or rest.
        mutating func afterStep() -> Action {
            guard queued.isEmpty else {
                starting = true
                return .step(accumulator: accumulator, value: queued.removeFirst())
            }
            running = false
            return upstreamCompleted ? .finish(accumulator) : .nothing
        }
    }

    let state: Locked<State>
    let generator: (T, T) -> Signal<(T, Passthrough<T>), E>
    let subscriber: Subscriber<T, E>
    /// The running step's start; disposed with the fold's start.
    @usableFromInline let step = MetaDisposable()

    @usableFromInline init(
        _ value: T, generator: @escaping (T, T) -> Signal<(T, Passthrough<T>), E>, subscriber: Subscriber<T, E>
    ) {
        state = Locked(State(accumulator: value))
        self.generator = generator
        self.subscriber = subscriber
    }

    /// An upstream value: starts its step, or queues it behind the running one.
    @usableFromInline func enqueue(_ value: T) {
        run(
            state.withLock { state in
                guard !state.running else {
                    state.queued.append(value)
                    return .nothing
                }
                (state.running, state.starting) = (true, true)
                return .step(accumulator: state.accumulator, value: value)
            })
    }

    /// The upstream completed: sends the fold now if no step is running, else after the queue.
    @usableFromInline func finishWhenIdle() {
        run(
            state.withLock { state in
                state.upstreamCompleted = true
                return state.running ? .nothing : .finish(state.accumulator)
            })
    }

    func run(_ action: Action) {
        var action = action
        while case .step(let accumulator, let value) = action {
            step.set(
                generator(accumulator, value).start(
                    next: { [self] in update($0) },
                    error: { [subscriber] in subscriber.putError($0) },
                    completed: { [self] in stepCompleted() }
                ))
            action = state.withLock { state in
                state.starting = false
                guard state.completedWhileStarting else { return .nothing }
                state.completedWhileStarting = false
                return state.afterStep()
            }
        }
        if case .finish(let fold) = action {
            subscriber.putNext(fold)
            subscriber.putCompletion()
        }
    }

    func update(_ result: (T, Passthrough<T>)) {
        var replaced = result.0
        state.withLock { swap(&$0.accumulator, &replaced) }  // the old one is released here, unlocked
        if case .Some(let value) = result.1 { subscriber.putNext(value) }
    }

    func stepCompleted() {
        let action = state.withLock { state -> Action in
            guard !state.starting else {
                state.completedWhileStarting = true
                return .nothing
            }
            return state.afterStep()
        }
        run(action)
    }
}
