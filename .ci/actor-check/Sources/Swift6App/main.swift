// A Swift 6 app whose code is on the main actor by default. The lines marked `REPORTED` give a
// handler that runs off the main actor, or make an `Observed` whose value is set off it;
// `bash .ci/actor-check.sh` expects a debug build to report each once with its line, and nothing
// else, and a release build to print nothing.
import Dispatch
import ReceiverSignalKit

final class Model {
    var value = 0
}

let model = Model()
let background = Queue(name: "background")

// Off the main actor, a thousand times from one call site: one report.
func refresh() async {
    for _ in 0..<1_000 {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            (Signal<Int, NoError>.single(1) |> deliverOn(background)).start(next: { value in  // REPORTED
                model.value += value
                done.resume()
            })
        }
    }
}

// A listener made on the main actor, broadcast to from another thread.
func listenToFeed() async {
    let (transmitter, receiver) = Receiver<Int>.make()
    receiver.listen { model.value += $0 }  // REPORTED
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            for wave in 0..<100 { transmitter.broadcast(wave) }
            done.resume()
        }
    }
}

// `Observed` values made on the main actor (a view model's) and set off it, from a pair and from a
// signal: SwiftUI reads them on the main actor.
func observeOffMain() async {
    guard #available(macOS 14, iOS 17, *) else { return }
    let (transmitter, receiver) = Receiver<Int>.make()
    let count = receiver.observed(initial: 0)  // REPORTED
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            for wave in 0..<100 { transmitter.broadcast(wave) }
            done.resume()
        }
    }
    let arrived = DispatchSemaphore(value: 0)
    let profile = Signal<Int, NoError>.single(1) |> deliverOn(background) |> afterNext { _ in arrived.signal() }
    let name = profile.observed(initial: 0)  // REPORTED
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            arrived.wait()
            done.resume()
        }
    }
    model.value += count.value + name.value
}

// Correct: delivered on the main queue before `start`, and broadcast on the main actor.
func refreshOnMain() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        (Signal<Int, NoError>.single(1) |> deliverOn(background) |> deliverOnMainQueue).start(next: { value in
            model.value += value
            done.resume()
        })
    }
    let (transmitter, receiver) = Receiver<Int>.make()
    receiver.listen { model.value += $0 }
    for wave in 0..<100 { transmitter.broadcast(wave) }
    if #available(macOS 14, iOS 17, *) {
        let count = receiver.observed(initial: 0)
        for wave in 0..<100 { transmitter.broadcast(wave) }
        let arrived = DispatchSemaphore(value: 0)
        let profile =
            Signal<Int, NoError>.single(1) |> deliverOn(background) |> deliverOnMainQueue
            |> afterNext { _ in arrived.signal() }
        let shown = profile.observed(initial: 0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                arrived.wait()
                done.resume()
            }
        }
        model.value += count.value + shown.value
    }
}

// Meant to run elsewhere: started from nonisolated code, the handler is nobody's.
nonisolated func count(into total: Atomic<Int>) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        (Signal<Int, NoError>.single(1) |> deliverOn(Queue(name: "count"))).start(next: { value in
            total.modify { $0 + value }
            done.resume()
        })
    }
}

await refresh()
await listenToFeed()
await observeOffMain()
await refreshOnMain()
let total = Atomic(value: 0)
await count(into: total)
print("Swift6App: done")
