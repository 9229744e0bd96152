// swift-tools-version: 6.1
// Benchmarks for Receiver, in their own package so that the library's Package.swift stays free
// of dependencies. Run with `swift package benchmark` from this folder.
import PackageDescription

import class Foundation.FileManager
import struct Foundation.URL

// A path dependency is named after its folder, which is not always "Receiver" (a clone or a git
// worktree may be called anything), so name the library's package by the folder above this one.
let receiverPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Receiver")

// W6 measures the adapter's `ValuePromise`. It is compiled in once the library's sources declare
// that type, so the workload turns on by itself when the adapter lands, and is skipped (not
// faked) before.
let libraryHasValuePromise: Bool = {
    let sources = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
        guard file.pathExtension == "swift", let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
        if text.contains("class ValuePromise") || text.contains("struct ValuePromise") { return true }
    }
    return false
}()

let package = Package(
    name: "ReceiverBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "ReceiverBenchmarks",
            dependencies: [
                .product(name: "Receiver", package: receiverPackage),
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/ReceiverBenchmarks",
            swiftSettings: libraryHasValuePromise ? [.define("RECEIVER_VALUE_PROMISE")] : [],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
