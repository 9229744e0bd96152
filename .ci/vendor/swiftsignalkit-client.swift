// Client for the library vendored as a module named SwiftSignalKit: every source file
// concatenated into one file and compiled as that module, as an app that copies the sources in
// place of Telegram's SwiftSignalKit would. Written as SwiftSignalKit client code is: Swift 5
// language mode, Foundation beside it, module-qualified names, bare protocol types. Run by
// `.ci/vendor-check.sh`, which compares what it prints with `swiftsignalkit-expected.txt`.
import Foundation
import SwiftSignalKit

let evens: (Signal<Int, NoError>) -> Signal<Int, NoError> = SwiftSignalKit.filter { $0 % 2 == 0 }
var values: [Int] = []
let disposable: Disposable = (Signal<Int, NoError>.single(1) |> then(.single(2)) |> evens).start(next: { values.append($0) })
disposable.dispose()
print("SwiftSignalKit.filter: \(values)")

let fired = DispatchSemaphore(value: 0)
let timer = SwiftSignalKit.Timer(timeout: 0.01, repeat: false, completion: { fired.signal() }, queue: Queue())
timer.start()
print("SwiftSignalKit.Timer fired: \(fired.wait(timeout: .now() + 10) == .success)")
print("swiftsignalkit: ok")
