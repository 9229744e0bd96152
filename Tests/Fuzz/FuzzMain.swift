// The fuzz target (issue 9): libFuzzer's bytes choose a program for the model-based test
// (Tests/ReceiverTests/Model), which runs on the reference model and on the library. A difference
// in their delivery logs is a finding: the program is shrunk, printed with both logs, and the
// process stops so libFuzzer saves the input. Built and run by `.ci/fuzz.sh`, which compiles the
// library's sources, the model and this file into one module.

/// libFuzzer's entry point: runs the program these bytes choose; traps on a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var choices = ByteChoices(UnsafeBufferPointer(start: data, count: size))
    let program = ModelProgram.generate(&choices)
    if let mismatch = ModelCheck.compare(program, with: LibraryEngine.self) {
        fatalError(
            "The library and the model (SPEC §1–2) disagree; shrunk:\n\(ModelCheck.shrink(mismatch, with: LibraryEngine.self))"
        )
    }
    return 0
}
