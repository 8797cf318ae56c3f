// swift-tools-version:6.1
import PackageDescription

// Dependencies point one way (DESIGN.md §8):
// NextUpCore ← NextUpStore, NextUpConfig ← NextUpSync, NextUpBridge ← NextUpTUI, NextUpCLI ← nextup.
let package = Package(
    name: "nextup",
    products: [
        .executable(name: "nextup", targets: ["nextup"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .target(name: "NextUpCore"),
        .target(
            name: "NextUpStore",
            dependencies: ["NextUpCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The user's TOML configuration and key bindings.
        .target(
            name: "NextUpConfig",
            dependencies: ["NextUpCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "NextUpSync", dependencies: ["NextUpCore", "NextUpStore", "CZlib"]),
        // The phone bridge: iCalendar VTODO files in a vdir, both ways (DESIGN.md §5b).
        .target(name: "NextUpBridge", dependencies: ["NextUpCore", "NextUpStore"]),
        .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncursesw5-dev"])]),
        .target(name: "NextUpTUI", dependencies: ["NextUpCore", "NextUpStore", "NextUpConfig", "NextUpSync", "CNcursesw"]),
        .target(
            name: "NextUpCLI",
            dependencies: [
                "NextUpCore", "NextUpStore", "NextUpConfig", "NextUpSync", "NextUpTUI", "NextUpBridge",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "nextup", dependencies: ["NextUpCLI"]),

        .target(name: "NextUpTestSupport", path: "Tests/NextUpTestSupport"),
        .testTarget(
            name: "NextUpCoreTests",
            dependencies: ["NextUpCore", "NextUpTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "NextUpStoreTests",
            dependencies: ["NextUpStore", "NextUpCore", "NextUpTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "NextUpConfigTests", dependencies: ["NextUpConfig", "NextUpCore", "NextUpTestSupport"]),
        .testTarget(
            name: "NextUpSyncTests",
            dependencies: ["NextUpSync", "NextUpStore", "NextUpCore", "NextUpTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "NextUpBridgeTests",
            dependencies: ["NextUpBridge", "NextUpStore", "NextUpSync", "NextUpCore", "NextUpTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "NextUpTUITests", dependencies: ["NextUpTUI", "NextUpStore", "NextUpCore", "NextUpSync", "NextUpBridge", "NextUpTestSupport"]),
        .testTarget(
            name: "NextUpCLITests",
            dependencies: ["NextUpCLI", "NextUpSync", "NextUpStore", "NextUpCore", "NextUpTestSupport"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["NextUpCore", "NextUpStore", "NextUpSync"]),
    ]
)
