// ReceiverSignalKit — Telegram's SwiftSignalKit API, built on the Receiver core.
//
// SwiftSignalKit client code compiles with only its import changed to `import ReceiverSignalKit`.
// The core is re-exported, because that code names `Disposable` (the core's protocol) and may
// use a `Receiver` as a signal (`receiver.signal`); importing `Receiver` as well is harmless.

@_exported public import Receiver
