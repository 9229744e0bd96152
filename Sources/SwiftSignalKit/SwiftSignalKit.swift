// The module `SwiftSignalKit`: ReceiverSignalKit under SwiftSignalKit's name, so that an app
// switches from Telegram's SwiftSignalKit by changing its dependency and nothing else. Every
// `import SwiftSignalKit` keeps working, and so do module-qualified names — `SwiftSignalKit.Timer`
// (which files that also import Foundation write, since Foundation has a `Timer` too) and
// `SwiftSignalKit.filter` — because a name qualified with a module finds what that module
// re-exports.
//
// New code should `import ReceiverSignalKit`: the same API, under the name of this library.

@_exported public import ReceiverSignalKit
