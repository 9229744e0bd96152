// swift-tools-version: 6.1
// Benchmarks for Receiver, in their own package so that the library's Package.swift stays free
// of dependencies. Run with `swift package benchmark` from this folder.
import PackageDescription

// A path dependency is named after its folder, which is not always "Receiver" (a clone or a git
// worktree may be called anything), so name the library's package by the folder above this one.
let receiverPackage = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Receiver")

let package = Package(
    name: "ReceiverBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        // What a Swift 6 team weighs against a hot Receiver: AsyncChannel and share() (W24–W28).
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
        // package-benchmark's own malloc counter, read directly by W9 (bytes per live subscription).
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", exact: "1.6.1"),
    ],
    targets: [
        .target(name: "MallocStatistics", path: "Benchmarks/MallocStatistics"),
        .executableTarget(
            name: "ReceiverBenchmarks",
            dependencies: [
                .product(name: "Receiver", package: receiverPackage),
                .product(name: "ReceiverSignalKit", package: receiverPackage),
                "MallocStatistics",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ],
            path: "Benchmarks/ReceiverBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
