import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// The article "Testing with virtual time", as it is written there: its view model and its test.

final class SearchViewModel {
    let results: Signal<[String], NoError>

    init(query: Signal<String, NoError>, search: @escaping (String) -> Signal<[String], NoError>, queue: Queue) {
        let queries = query |> filter { !$0.isEmpty }
        results =
            (queries
                |> mapToSignal { text in
                    search(text)
                        |> timeout(5, queue: queue, alternate: .single([]))
                        |> delay(0.3, queue: queue)
                })
    }
}

@Suite(.detectingLeaks) struct TestingWithVirtualTimeTests {
    @Test func typingIsDebouncedAndASlowSearchTimesOut() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let query = ValuePromise("", ignoreRepeated: true)
        let model = SearchViewModel(
            query: query.get(),
            search: { text in
                text == "slow" ? .never() : .single(["\(text)!"]) |> delay(1, queue: queue)
            },
            queue: queue)

        let results = scheduler.record(model.results)
        query.set("s")
        scheduler.advance(by: 0.2)
        query.set("sw")
        scheduler.advance(by: 1.3)
        query.set("slow")
        scheduler.advance(by: 10)

        #expect(results.events == [.next(1.5, ["sw!"]), .next(6.8, [])])
    }

    /// The module's landing page example.
    @Test func theGreetingComesTwoSecondsLater() {
        let scheduler = TestScheduler()
        let greeting = Signal<String, NoError>.single("hello") |> delay(2, queue: scheduler.queue())

        let recording = scheduler.record(greeting)
        scheduler.advance(by: 1)
        #expect(recording.events == [])
        scheduler.advance(by: 1)
        #expect(recording.events == [.next(2, "hello"), .completed(2)])
    }
}
