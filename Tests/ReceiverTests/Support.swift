import Receiver
@_exported import TestSupport

let allStrategies: [Receiver<Int>.Strategy] = [.hot, .warm(upTo: 2), .cold]
