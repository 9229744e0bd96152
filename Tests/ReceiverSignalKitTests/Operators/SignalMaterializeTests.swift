import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// An event as text: `Next(v)`, `Error(e)` or `Completion`.
private func describe<T, E>(_ event: SignalEvent<T, E>) -> String {
    switch event {
    case .Next(let value): "Next(\(value))"
    case .Error(let error): "Error(\(error))"
    case .Completion: "Completion"
    }
}

/// A signal of the given event values, then a completion if `completes`.
private func events(_ events: [SignalEvent<Int, TestError>], completes: Bool = true) -> Signal<
    SignalEvent<Int, TestError>, NoError
> {
    Signal { subscriber in
        events.forEach(subscriber.putNext)
        if completes { subscriber.putCompletion() }
        return EmptyDisposable
    }
}

@Suite(.detectingLeaks) struct SignalMaterializeTests {
    @Test func signalEventHasACaseForEachEvent() {
        let all: [SignalEvent<Int, LoadError>] = [.Next(1), .Error(.network), .Completion]
        #expect(all.map(describe) == ["Next(1)", "Error(network)", "Completion"])
    }

    /// Mind the names: `dematerialize` turns events INTO values (Rx's `materialize`).
    @Test func dematerializeTurnsEventsIntoValuesThenCompletes() {
        #expect(
            history(of: values([1, 2]) |> dematerialize |> map(describe)) == [
                "Next(1)", "Next(2)", "Completion", "completed",
            ])
        #expect(
            history(of: values([1], thenFail: TestError(code: 3)) |> dematerialize |> map(describe))
                == ["Next(1)", "Error(TestError(code: 3))", "completed"])
    }

    /// Mind the names: `materialize` turns event values back into events (Rx's `dematerialize`).
    @Test func materializeTurnsEventValuesIntoEvents() {
        #expect(
            history(of: events([.Next(1), .Next(2), .Completion, .Next(3)]) |> materialize) == ["1", "2", "completed"])
        #expect(
            history(of: events([.Next(1), .Error(TestError(code: 4)), .Next(2)]) |> materialize)
                == ["1", "error TestError(code: 4)"])
        #expect(history(of: events([.Next(1)]) |> materialize) == ["1", "completed"])
        #expect(history(of: events([.Next(1)], completes: false) |> materialize) == ["1"])
    }

    @Test func materializeDisposesTheUpstreamWhenAnEventValueEndsIt() {
        let disposals = CountingDisposable()
        let upstream = Signal<SignalEvent<Int, TestError>, NoError> { subscriber in
            subscriber.putNext(.Completion)
            return disposals
        }
        #expect(history(of: upstream |> materialize) == ["completed"])
        #expect(disposals.count == 1)
    }

    @Test func dematerializeThenMaterializeGivesTheSignalBack() {
        #expect(
            history(of: values([1, 2], thenFail: TestError(code: 5)) |> dematerialize |> materialize)
                == ["1", "2", "error TestError(code: 5)"])
        #expect(history(of: values([1]) |> dematerialize |> materialize) == ["1", "completed"])
    }

    @Test func materializeAcceptsErrorTypesThatAreNotErrors() {
        let plain: Signal<Int, LoadError> = Signal<Int, LoadError>.fail(.network) |> dematerialize |> materialize
        #expect(history(of: plain) == ["error network"])
        let void: Signal<SignalEvent<Int, Void>, NoError> = Signal<Int, Void>.single(1) |> dematerialize
        #expect(history(of: void |> map(describe)) == ["Next(1)", "Completion", "completed"])
    }
}
