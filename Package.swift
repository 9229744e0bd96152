// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Receiver",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "Receiver", targets: ["Receiver"])
    ],
    targets: [
        .target(name: "Receiver"),
        .testTarget(name: "ReceiverTests", dependencies: ["Receiver"]),
        .executableTarget(name: "Tour", dependencies: ["Receiver"], path: "Examples/Tour"),
        .executableTarget(name: "AppLifecycle", dependencies: ["Receiver"], path: "Examples/AppLifecycle"),
    ],
    swiftLanguageModes: [.v6]
)

// Stricter code everywhere: the same upcoming features for every target.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
