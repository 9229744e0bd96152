// The fuzz target: libFuzzer's bytes choose a program for one of the two
// model-based tests, which runs on its reference model and on the library. A difference in their
// logs is a finding: the program is shrunk, printed with both logs, and the process stops so
// libFuzzer saves the input. Built and run by `.ci/fuzz.sh`, which compiles both modules'
// sources, both models and this file into one module; the environment variable
// `RECEIVER_FUZZ_TARGET` chooses the test:
// - `core` (the default): the core's delivery contract (Tests/ReceiverTests/Model: the threading
//   contract and the operators);
// - `signalkit`: the adapter (Tests/ReceiverSignalKitTests/Model: SwiftSignalKit's behaviour and
//   the migration guide's listed differences), at both levels of detail.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

private let fuzzesTheAdapter = environment("RECEIVER_FUZZ_TARGET") == "signalkit"

/// libFuzzer's entry point: runs the program these bytes choose; traps on a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    if fuzzesTheAdapter {
        var choices = ByteChoices(bytes)
        let program = SignalModelProgram.generate(&choices)
        for level in 1...2 {
            if case .differs(let mismatch) = SignalModelCheck.check(
                program, with: SignalLibraryEngine.self, level: level)
            {
                let shrunk = SignalModelCheck.shrink(mismatch, with: SignalLibraryEngine.self)
                fatalError("The library and the adapter's model disagree; shrunk:\n\(shrunk)")
            }
        }
        return 0
    }
    var choices = ByteChoices(bytes)
    let program = ModelProgram.generate(&choices)
    if let mismatch = ModelCheck.compare(program, with: LibraryEngine.self) {
        fatalError(
            "The library and the core's model disagree; shrunk:\n\(ModelCheck.shrink(mismatch, with: LibraryEngine.self))"
        )
    }
    return 0
}
