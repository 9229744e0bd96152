// swift-tools-version: 6.2
// Client code of the library as users write it, for the actor checker (`bash .ci/actor-check.sh`):
// not built by the library's package.
//
// - Swift6App: the Swift 6 mode with the main actor as default isolation, as new Xcode projects
//   have; a debug build reports its off-actor handlers and `Observed` values, once each, and
//   nothing else.
// - SwiftSignalKitClient: SwiftSignalKit client code in the Swift 5 mode; nothing to report, but
//   for a main-actor controller that runs its handler on a queue on purpose (`controller`).
import PackageDescription

// A path dependency is named after its folder, which is not always "Receiver" (a clone or a git
// worktree may be called anything), so name the library's package by the folder two levels up.
let receiverPackage = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "Receiver")

let package = Package(
    name: "ActorCheckClients",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "Swift6App",
            dependencies: [.product(name: "ReceiverSignalKit", package: receiverPackage)],
            swiftSettings: [.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]),
        .executableTarget(
            name: "SwiftSignalKitClient",
            dependencies: [.product(name: "SwiftSignalKit", package: receiverPackage)],
            swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
