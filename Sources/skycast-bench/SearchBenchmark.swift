import Catalog
import Foundation
import Models
import SkycastCore

/// Replays typing of realistic queries one keystroke at a time over the full catalog.
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

        var timings: [Double] = []
        for _ in 0..<3 {
            for query in queries {
                var typed = ""
                for character in query {
                    typed.append(character)
                    let begin = monotonicSeconds()
                    _ = try? catalog.search(typed, limit: 8)
                    timings.append((monotonicSeconds() - begin) * 1e6)
                }
            }
        }
        report("search.keystroke.p50_us", percentile(timings, 0.5), "us")
        report("search.keystroke.p99_us", percentile(timings, 0.99), "us")
        report("search.keystroke.max_us", timings.max() ?? 0, "us")
        report("search.rss_mb", residentMegabytes(), "MB")
        report("search.index_mb", Double(catalog.indexMemoryBytes) / 1_048_576, "MB")
        withExtendedLifetime(catalog) {}
    }
}
