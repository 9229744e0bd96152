// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Marble diagrams for timing tests, on a `TestScheduler`'s virtual time: a timeline written as one
// line of text, each character one tick, as swift-async-algorithms' tests write theirs. A diagram
// is read and written here and nowhere else, so that a test says what happens when in one line
// instead of a dozen advances and expectations; what it cannot say (a disposal mid-way, where a
// start ran) the test still says with `Recording` and `advance` around it.
//
//     -      nothing happens at this tick
//     a      a value whose description is "a" (any character but the ones here)
//     |      completion
//     ^      an error (a diagram does not say which)
//     [ab|]  everything inside happens at one tick, in this order
//
// Public only to be shared between the test targets, like the rest of TestSupport.
public import ReceiverSignalKit
public import ReceiverSignalKitTesting
public import Testing

/// One event of a diagram: a value's description, `|` or `^`.
public typealias Marble = String

/// Reads `diagram` into its ticks, each the events at that tick in order (`[]` for `-`).
public func marbleTicks(_ diagram: String) -> [[Marble]] {
    var ticks: [[Marble]] = []
    var group: [Marble]?
    for character in diagram {
        switch (character, group) {
        case ("[", nil): group = []
        case ("]", let events?): (ticks, group) = (ticks + [events], nil)
        case (_, var events?):
            events.append(String(character))
            group = events
        case ("-", nil): ticks.append([])
        case (_, nil): ticks.append([String(character)])
        }
    }
    precondition(group == nil, "marble diagram \"\(diagram)\": a [ is not closed")
    return ticks
}

/// Writes `ticks` as a diagram: `-` for a tick with no event, `[...]` for one with several.
public func marbleDiagram(_ ticks: [[Marble]]) -> String {
    ticks.map { $0.isEmpty ? "-" : $0.count == 1 ? $0[0] : "[\($0.joined())]" }.joined()
}

/// Writes recorded `events` as a diagram whose tick 0 is `start` and whose ticks are `tick`
/// seconds, through the last event (or through `ticks` ticks if given: later events are left out).
/// An event between two ticks is written `{time:event}` at the tick before it, so that it fails
/// any diagram a test can write and shows where it fell.
public func marbleDiagram<Value, Failure>(
    _ events: [RecordedEvent<Value, Failure>], start: Double = 0, tick: Double = 1, ticks: Int? = nil
) -> String {
    var diagram: [[Marble]] = Array(repeating: [], count: ticks ?? 0)
    for event in events {
        let position = (event.time - start) / tick
        let index = Int(position.rounded(.down))
        guard index >= 0, ticks.map({ index < $0 }) ?? true else { continue }
        if index >= diagram.count { diagram += Array(repeating: [], count: index + 1 - diagram.count) }
        let marble: Marble =
            switch event {
            case .next(_, let value): String(describing: value)
            case .error: "^"
            case .completed: "|"
            }
        let onTick = abs(position - position.rounded()) < 1e-9
        diagram[index].append(onTick ? marble : "{\(event.time):\(marble)}")
    }
    return marbleDiagram(diagram)
}

/// Starts `signal` on `scheduler` now (tick 0), runs the scheduler through the last tick of
/// `expected`, then disposes the start; expects what it sent to read as `expected` (normalised:
/// `[a]` reads as `a`). A trailing `-` expects silence at that tick.
///
/// ```swift
/// expectMarbles(marbles("a-b|", on: queue) |> delay(2, queue: queue), "--a-b|", on: scheduler)
/// ```
public func expectMarbles<Value, Failure>(
    _ signal: Signal<Value, Failure>, _ expected: String, on scheduler: TestScheduler, tick: Double = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let expectedTicks = marbleTicks(expected)
    let start = scheduler.now
    let recording = scheduler.record(signal)
    scheduler.advance(to: start + Double(max(expectedTicks.count - 1, 0)) * tick)
    recording.dispose()
    let seen = marbleDiagram(recording.events, start: start, tick: tick, ticks: expectedTicks.count)
    #expect(seen == marbleDiagram(expectedTicks), sourceLocation: sourceLocation)
}

/// A cold signal that plays `diagram` from each start: tick 0 during the start, on the starting
/// thread; tick `k` on `queue`, `k` ticks after the start. Values are the characters as strings;
/// `^` is `TestError(code: 0)`. A disposed start's later ticks still run, into its subscriber,
/// which drops them, as it drops any event after a disposal.
///
/// ```swift
/// marbles("a-b|", on: queue)   // "a" at the start, "b" 2 ticks later, the completion 3 ticks later
/// ```
public func marbles(_ diagram: String, on queue: Queue, tick: Double = 1) -> Signal<String, TestError> {
    let ticks = marbleTicks(diagram)
    return Signal { subscriber in
        for (index, events) in ticks.enumerated() where !events.isEmpty {
            if index == 0 {
                send(events, to: subscriber)
            } else {
                queue.after(Double(index) * tick) { send(events, to: subscriber) }
            }
        }
        return EmptyDisposable
    }
}

/// A hot signal that plays `diagram` once, on `queue`, from now: tick `k` is `k` ticks from now
/// (tick 0 at the next advance), whoever is started then, so a start made later sees only what
/// comes after it. Values and errors as in ``marbles(_:on:tick:)``.
///
/// ```swift
/// hotMarbles("a--b|", on: queue) |> delay(2, queue: queue)   // started at 2: "---b|"
/// ```
public func hotMarbles(_ diagram: String, on queue: Queue, tick: Double = 1) -> Signal<String, TestError> {
    let (input, output) = Signal<String, TestError>.pipe()
    for (index, events) in marbleTicks(diagram).enumerated() where !events.isEmpty {
        queue.after(Double(index) * tick) { send(events, to: input) }
    }
    return output
}

/// Puts a tick's events into `subscriber`, in order.
private func send(_ events: [Marble], to subscriber: Subscriber<String, TestError>) {
    for event in events {
        switch event {
        case "|": subscriber.putCompletion()
        case "^": subscriber.putError(TestError(code: 0))
        default: subscriber.putNext(event)
        }
    }
}
