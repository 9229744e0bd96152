import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct SignalIdentityTests {
    @Test func identityReturnsItsArgumentAndServesAsATransform() {
        #expect(identity(a: 3) == 3)
        var received: [String] = []
        (Signal<String, NoError>.single("a") |> map(identity)).start(next: { received.append($0) })
        #expect(received == ["a"])
    }

    @Test func noValueTypesASignalThatOnlyEnds() {
        var events: [String] = []
        let signal: Signal<NoValue, NoError> = .complete()
        signal.start(completed: { events.append("completed") })
        #expect(events == ["completed"])
        #expect(MemoryLayout<NoValue>.size == 0)
    }
}
