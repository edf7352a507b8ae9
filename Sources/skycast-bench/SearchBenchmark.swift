import Catalog
import Foundation
import Models
import SkycastApp
import SkycastCore
import Terminal

/// Replays typing of realistic queries, one keystroke at a time, each query once: first against the
/// catalog alone, beside a linear scan over the same folded names (so the figure reads as a ratio
/// that holds on any machine); then through the app, each key going through `App.update` (which
/// searches) and a frame drawn, as in the table.
enum SearchBenchmark {
    static let queries = [
        "London", "new york", "sao paulo", "São Paulo", "Zürich", "zurich", "München", "Reykjavík",
        "서울", "東京", "北京", "Москва", "Санкт-Петербург", "Αθήνα",
        "Lodnon", "Toyko", "Berlni", "Amsterdma", "Sidney",
        "Paris, FR", "Paris, Texas", "Portland, Oregon", "Springfield, US", "San Jose, Costa Rica",
        "Buenos Aires", "Rio de Janeiro", "Kuala Lumpur", "Ho Chi Minh", "Johannesburg", "Wellington",
    ]

    static func run() {
        report("search.rss_baseline_mb", residentMegabytes(), "MB")
        var start = monotonicSeconds()
        // As the app does: the file bytes are dropped once parsed.
        var catalog = try! Catalog.loadBundled()
        report("search.load.catalog_ms", (monotonicSeconds() - start) * 1000, "ms")
        start = monotonicSeconds()
        catalog = catalog.loadingAlternateNames(try! Catalog.bundledBytes("city-names.tsv"))
        report("search.load.altnames_ms", (monotonicSeconds() - start) * 1000, "ms")

        let size = TerminalSize(rows: 30, columns: 100)
        let screen = TestScreen(size: size, capabilities: TerminalCapabilities(colors: .full, unicode: true, animation: true))
        let view = AppView(capabilities: screen.capabilities)
        var state = AppState(provider: .openMeteo, units: .metric, bookmarks: [], size: size)
        let now = Date()
        _ = App.update(&state, with: .catalogLoaded(catalog), now: now)

        // The catalog alone, each prefix searched once, then the same names read one by one.
        var searches: [Double] = []
        var scans: [Double] = []
        var matched = 0
        for query in queries {
            var typed = ""
            for character in query {
                typed.append(character)
                var begin = monotonicSeconds()
                matched &+= (try? catalog.search(typed, limit: App.suggestionLimit))?.count ?? 0
                searches.append((monotonicSeconds() - begin) * 1e6)
                begin = monotonicSeconds()
                matched &+= catalog.countNamesByLinearScan(withPrefix: typed)
                scans.append((monotonicSeconds() - begin) * 1e6)
            }
        }
        // Then through the app: update (which searches) and a frame.
        var keystrokes: [Double] = []
        for query in queries {
            _ = App.update(&state, with: .key(.character("/")), now: now)
            for character in query {
                let begin = monotonicSeconds()
                _ = App.update(&state, with: .key(.character(character)), now: now)
                view.render(state, on: screen, now: now)
                keystrokes.append((monotonicSeconds() - begin) * 1e6)
            }
            _ = App.update(&state, with: .key(.escape), now: now)
        }
        report("search.keystrokes", Double(keystrokes.count), "keys")
        report("search.catalog.p50_us", percentile(searches, 0.5), "us")
        report("search.catalog.p99_us", percentile(searches, 0.99), "us")
        report("search.linear_scan.p50_us", percentile(scans, 0.5), "us")
        report("search.catalog_p99_over_scan_p50", percentile(searches, 0.99) / max(1e-9, percentile(scans, 0.5)), "ratio")
        report("search.keystroke_to_frame.p50_us", percentile(keystrokes, 0.5), "us")
        report("search.keystroke_to_frame.p99_us", percentile(keystrokes, 0.99), "us")
        report("search.keystroke_to_frame.max_us", keystrokes.max() ?? 0, "us")
        report("search.rss_mb", residentMegabytes(), "MB")
        report("search.index_mb", Double(catalog.indexMemoryBytes) / 1_048_576, "MB")
        withExtendedLifetime((catalog, matched)) {}
    }
}
