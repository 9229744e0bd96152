// swift-tools-version: 6.0
import PackageDescription

// Debug builds report handlers run off their caller's actor and let tests find leaked subscriptions
// (Diagnostics.swift); release builds compile none of it.
let diagnostics = SwiftSetting.define("RECEIVER_DIAGNOSTICS", .when(configuration: .debug))

let package = Package(
    name: "Receiver",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        // The core and its operators: what Receiver 0.0.5 users import. No SwiftSignalKit names.
        .library(name: "Receiver", targets: ["Receiver"]),
        // SwiftSignalKit's whole public API, built on the core: `import ReceiverSignalKit`.
        .library(name: "ReceiverSignalKit", targets: ["ReceiverSignalKit"]),
        // The same, under SwiftSignalKit's module name: apps switch by changing the dependency only.
        .library(name: "SwiftSignalKit", targets: ["SwiftSignalKit"]),
        // For tests only: a virtual-time `Queue` (`TestScheduler`) and recorded event histories.
        .library(name: "ReceiverSignalKitTesting", targets: ["ReceiverSignalKitTesting"]),
    ],
    targets: [
        .target(name: "Receiver", swiftSettings: [diagnostics]),
        .target(name: "ReceiverSignalKit", dependencies: ["Receiver"], swiftSettings: [diagnostics]),
        .target(name: "SwiftSignalKit", dependencies: ["ReceiverSignalKit"]),
        .target(name: "ReceiverSignalKitTesting", dependencies: ["ReceiverSignalKit"], swiftSettings: [diagnostics]),
        // Helpers every test target shares (a thread-safe history, `CountingDisposable`, marble
        // diagrams on virtual time); a target of its own so that each suite uses the one copy.
        .target(name: "TestSupport", dependencies: ["ReceiverSignalKitTesting"], path: "Tests/TestSupport"),
        .testTarget(name: "ReceiverTests", dependencies: ["Receiver", "ReceiverSignalKitTesting", "TestSupport"]),
        .testTarget(
            name: "ReceiverSignalKitTests",
            dependencies: ["ReceiverSignalKit", "ReceiverSignalKitTesting", "TestSupport"]),
        .testTarget(
            name: "ReceiverSignalKitTestingTests", dependencies: ["ReceiverSignalKitTesting", "TestSupport"]),
        // SwiftSignalKit client code as Telegram writes it: Swift 5 mode, `import SwiftSignalKit`
        // beside Foundation, bare protocol types (so not the stricter features below), and its
        // tests on virtual time.
        .testTarget(
            name: "SwiftSignalKitTests", dependencies: ["SwiftSignalKit", "ReceiverSignalKitTesting"],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "Tour", dependencies: ["ReceiverSignalKit"], path: "Examples/Tour"),
        .executableTarget(name: "AppLifecycle", dependencies: ["Receiver"], path: "Examples/AppLifecycle"),
        .executableTarget(name: "LoginForm", dependencies: ["ReceiverSignalKit"], path: "Examples/LoginForm"),
        .executableTarget(name: "CachedRequest", dependencies: ["ReceiverSignalKit"], path: "Examples/CachedRequest"),
        .executableTarget(name: "SearchScreen", dependencies: ["ReceiverSignalKit"], path: "Examples/SearchScreen"),
        .executableTarget(
            name: "ObservationBridge", dependencies: ["ReceiverSignalKit"], path: "Examples/ObservationBridge"),
    ],
    swiftLanguageModes: [.v6]
)

// Stricter code everywhere: the same upcoming features for every target but the one that is
// SwiftSignalKit client code as it is written.
for target in package.targets where target.name != "SwiftSignalKitTests" {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
