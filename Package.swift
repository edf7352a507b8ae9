// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way, toward the pure modules:
//   skycast → SkycastApp → Terminal → DiffableSnapshot, TextLayout
//                        → Weather  → Catalog → CityData; TextLayout
let package = Package(
    name: "skycast",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "skycast", targets: ["skycast"]),
        .executable(name: "skycast-bench", targets: ["skycast-bench"]),
        .library(name: "DiffableSnapshot", targets: ["DiffableSnapshot"]),
    ],
    targets: [
        // Pure Swift: the snapshot type and its minimal diff.
        .target(name: "DiffableSnapshot"),

        // ncursesw from Debian's libncursesw5-dev (see README for the install step).
        .systemLibrary(
            name: "CNCursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),

        // Signal handlers of the full-screen table (crash restore, resize and quit wake-ups): C, so
        // that their state exists once per process.
        .target(name: "CTerminalSignals"),

        // Pure text helpers: sanitising for the terminal and display widths.
        .target(name: "TextLayout"),

        // The terminal: the Screen protocol, its ncurses and test backends, text layout, TableView.
        .target(name: "Terminal", dependencies: ["DiffableSnapshot", "TextLayout", "CNCursesw", "CTerminalSignals"]),

        // The bundled GeoNames data, exposed through Bundle.module.
        .target(
            name: "CityData",
            path: "Resources",
            exclude: ["CITIES-LICENSE.md"],
            sources: ["CityDataBundle.swift"],
            resources: [.copy("cities.tsv"), .copy("city-names.tsv"), .copy("countries.tsv")]
        ),

        // The values every layer shares: cities, weather, units, providers and their errors.
        .target(name: "Models"),

        // City catalog and search (pure logic over bytes; loading through CityData).
        .target(name: "Catalog", dependencies: ["Models", "CityData"]),

        // Providers, the NetworkManager actor, the cache, the geocoder.
        .target(name: "Weather", dependencies: ["Models", "TextLayout"]),

        // App logic: state, update, view. Testable without a terminal.
        .target(name: "SkycastApp", dependencies: ["DiffableSnapshot", "TextLayout", "Terminal", "Models", "Weather", "Catalog"]),

        // The thin executable that wires everything to the real terminal and network.
        .executableTarget(name: "skycast", dependencies: ["SkycastApp"]),

        // A small HTTP/1.1 server on 127.0.0.1 with latency and fault injection, for tests and benchmarks.
        .target(name: "LoopbackHTTP"),

        // Golden-screen comparison shared by the screen tests.
        .target(name: "GoldenFiles"),

        .executableTarget(
            name: "skycast-bench",
            dependencies: ["DiffableSnapshot", "TextLayout", "Terminal", "CNCursesw", "Models", "Weather", "Catalog", "SkycastApp", "LoopbackHTTP"]
        ),

        .testTarget(name: "DiffableSnapshotTests", dependencies: ["DiffableSnapshot"]),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "DiffableSnapshot", "TextLayout", "GoldenFiles"],
                    exclude: ["Goldens"]),
        .testTarget(name: "CatalogTests", dependencies: ["Models", "Catalog"]),
        .testTarget(name: "WeatherTests", dependencies: ["Models", "Weather", "Catalog", "LoopbackHTTP"]),
        .testTarget(name: "SkycastAppTests", dependencies: ["SkycastApp", "DiffableSnapshot", "Terminal", "Models", "Weather", "Catalog", "LoopbackHTTP", "GoldenFiles"],
                    exclude: ["Goldens"]),
    ]
)
