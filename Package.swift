// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way, toward the pure modules:
//   skycast → SkycastApp → Terminal → SkycastCore → Catalog → Models, CityData
//                        → Weather → Models, TextLayout
//   Terminal → DiffableSnapshot, TextLayout, CNCursesw, CTerminalSignals
// Built and tested on Linux only (ncursesw, FoundationNetworking, /proc): no platform is declared.
let package = Package(
    name: "skycast",
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
        .target(name: "Terminal", dependencies: ["SkycastCore", "DiffableSnapshot", "TextLayout", "CNCursesw", "CTerminalSignals"]),

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
        .target(name: "Catalog", dependencies: ["Models", "CityData", "Storage"]),

        // Files: atomic writes, kept-aside copies, the XDG folders.
        .target(name: "Storage"),

        // Providers, the NetworkManager actor, the cache, the geocoder.
        .target(name: "Weather", dependencies: ["Models", "Storage", "TextLayout"]),

        // The app's pure logic: state (with the table's selection and scroll), update, keymap, layout,
        // formatters. No terminal, no network: tested directly.
        .target(name: "SkycastCore", dependencies: ["Models", "Catalog"]),

        // The app around it: views, the runtime that performs effects, the CLI, stores and settings.
        .target(name: "SkycastApp", dependencies: ["SkycastCore", "DiffableSnapshot", "TextLayout", "Terminal", "Models", "Storage", "Weather", "Catalog"]),

        // The thin executable that wires everything to the real terminal and network.
        .executableTarget(name: "skycast", dependencies: ["SkycastApp"]),

        // A small HTTP/1.1 server on 127.0.0.1 with latency and fault injection, for tests and benchmarks.
        .target(name: "LoopbackHTTP"),

        // Stand-ins for Open-Meteo and OpenWeatherMap that keep the real services' limits.
        .target(name: "ServiceStandIns", dependencies: ["LoopbackHTTP"]),

        // Cities and demo weather at a fixed instant, shared by the tests of the core and the app.
        .target(name: "TestFixtures", dependencies: ["Models", "Catalog", "SkycastCore", "Weather"]),

        // Golden-screen comparison shared by the screen tests.
        .target(name: "GoldenFiles"),

        .executableTarget(
            name: "skycast-bench",
            dependencies: ["DiffableSnapshot", "TextLayout", "Terminal", "CNCursesw", "Models", "Weather", "Catalog", "SkycastCore", "SkycastApp", "LoopbackHTTP", "ServiceStandIns", "TestFixtures"]
        ),

        .testTarget(name: "DiffableSnapshotTests", dependencies: ["DiffableSnapshot", "TestFixtures"]),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout"]),
        .testTarget(name: "SkycastCoreTests", dependencies: ["SkycastCore", "Models", "Catalog", "TestFixtures"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "SkycastCore", "DiffableSnapshot", "TextLayout", "GoldenFiles"],
                    exclude: ["Goldens"]),
        .testTarget(name: "CatalogTests", dependencies: ["Models", "Catalog", "Storage"]),
        .testTarget(name: "WeatherTests", dependencies: ["Models", "Weather", "Catalog", "LoopbackHTTP", "ServiceStandIns", "TestFixtures"]),
        .testTarget(name: "SkycastAppTests", dependencies: ["SkycastApp", "SkycastCore", "DiffableSnapshot", "Terminal", "Models", "Storage", "Weather", "Catalog", "LoopbackHTTP", "ServiceStandIns", "GoldenFiles", "TestFixtures"],
                    exclude: ["Goldens"]),
    ]
)
