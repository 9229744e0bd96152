// Enters `TestScheduler.withMainQueue` in the form the argument names (`sync`, `async`) and prints
// whether `Queue.mainQueue()` was the scheduler's there. Built in debug, it prints `true`; built in
// release, it must stop with its message before the body runs, never print `false`.
import ReceiverSignalKit
import ReceiverSignalKitTesting

let scheduler = TestScheduler()
switch CommandLine.arguments.dropFirst().first ?? "" {
case "sync":
    scheduler.withMainQueue { print("body ran; the scheduler's main queue: \(Queue.mainQueue() === scheduler.mainQueue)") }
case "async":
    await scheduler.withMainQueue {
        await Task.yield()
        print("body ran; the scheduler's main queue: \(Queue.mainQueue() === scheduler.mainQueue)")
    }
default:
    print("no such case")
}
