// SwiftSignalKit client code in the Swift 5 mode, as apps that switch to the library have it:
// handlers run on background queues from free functions and top-level code, which are on no
// actor, so a debug build reports nothing. Run with `controller`, a main-actor type (as every
// UIViewController subclass is) starts a signal whose handler runs on a queue on purpose: main-
// actor code by the compiler's inference, so that start is reported once.
import Foundation
import SwiftSignalKit

let background = Queue(name: "background")

func load(_ done: DispatchSemaphore) -> Disposable {
    return (Signal<Int, NoError>.single(1) |> deliverOn(background)).start(next: { _ in done.signal() })
}

@MainActor final class Controller {
    var loaded = 0

    func viewDidLoad(_ done: DispatchSemaphore) {
        _ = (Signal<Int, NoError>.single(1) |> deliverOn(background)).start(next: { value in  // REPORTED
            self.loaded += value
            done.signal()
        })
    }
}

let done = DispatchSemaphore(value: 0)
let pipe = ValuePipe<Int>()
let disposable = DisposableSet()
disposable.add(pipe.signal().start(next: { _ in done.signal() }))
disposable.add(load(done))
DispatchQueue.global().async { pipe.putNext(1) }
done.wait()
done.wait()
if CommandLine.arguments.dropFirst().first == "controller" {
    MainActor.assumeIsolated { Controller().viewDidLoad(done) }
    done.wait()
}
disposable.dispose()
print("SwiftSignalKitClient: done")
