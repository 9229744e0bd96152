// Misuse in an optimised build: every case must stop with its message, in release builds too,
// which `precondition` and `assert` would not print under -O. Compiled with -O with the one-file
// library by `.ci/vendor-check.sh`, run once per case (the case's name is the argument), and
// checked to exit with a failure whose standard error holds the expected text.
import Dispatch

switch CommandLine.arguments.dropFirst().first ?? "" {
case "warm": _ = Receiver<Int>.make(with: .warm(upTo: -1))
case "skip": _ = Receiver<Int>.make().1.skip(count: -2)
case "take": _ = Receiver<Int>.make().1.take(count: -3)
case "signal-skip": _ = Signal<Int, NoError>.never() |> skip(-4)
case "thread-pool": _ = ThreadPool(threadCount: 0, threadPriority: 0.5)
case "timer": _ = Timer(timeout: .nan, repeat: false, completion: {}, queue: Queue())
case "delay": _ = Signal<Int, NoError>.single(1) |> delay(.nan, queue: Queue())
case "get-never": _ = await Signal<Int, NoError>.never().get()
case "restart-spin": (combineLatest(restart(Signal<Int, NoError>.single(1)), .single(2)) |> take(3)).start()
default: print("no such case")
}
print("did not stop")
