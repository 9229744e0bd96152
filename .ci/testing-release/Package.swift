// swift-tools-version: 6.0
// A client of ReceiverSignalKitTesting, for `bash .ci/testing-release-check.sh`: not built by the
// library's package. MainQueueScope asks for the main queue on virtual time, which a debug build
// of the library gives and a release build refuses with a message.
import PackageDescription

// A path dependency is named after its folder, which is not always "Receiver" (a clone or a git
// worktree may be called anything), so name the library's package by the folder two levels up.
let receiverPackage = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "Receiver")

let package = Package(
    name: "TestingReleaseClient",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "MainQueueScope",
            dependencies: [
                .product(name: "ReceiverSignalKit", package: receiverPackage),
                .product(name: "ReceiverSignalKitTesting", package: receiverPackage),
            ])
    ],
    swiftLanguageModes: [.v6]
)
