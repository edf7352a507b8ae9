import Catalog
import Foundation
import Models
import SkycastApp
import ServiceStandIns
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
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-bench-index-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var start = monotonicSeconds()
        // First use: the index is built from the TSV files and written to the cache folder.
        guard (try? Catalog.open(indexDirectory: directory)) != nil else {
            FileHandle.standardError.write(Data("skycast-bench: cannot open the catalog\n".utf8))
            return
        }
        report("search.load.build_ms", (monotonicSeconds() - start) * 1000, "ms")
        start = monotonicSeconds()
        let catalog = try! Catalog.open(indexDirectory: directory)
        report("search.load.open_ms", (monotonicSeconds() - start) * 1000, "ms")
        report("search.rss_after_open_mb", residentMegabytes(), "MB")

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
        report("search.index_file_mb", Double(catalog.indexBytes) / 1_048_576, "MB")
        withExtendedLifetime((catalog, matched)) {}
        processes()
    }

    /// Whole `skycast` processes, as a shell or a status bar runs them: `find` and `show` against
    /// `--version` (the process floor), medians of 9 runs after a warm-up that builds the index.
    static func processes() {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("skycast")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            FileHandle.standardError.write(Data("skycast-bench: \(binary.path) is not built (swift build -c release); process figures skipped\n".utf8))
            return
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-bench-home-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let commands: [(String, [String])] = [
            ("floor", ["--version"]), ("find", ["find", "Seoul"]), ("find_cjk", ["find", "東京"]), ("show_demo", ["show", "--demo", "Seoul"]),
        ]
        _ = ProcessRun(binary: binary, arguments: ["find", "Seoul"], environment: environment)
        var medians: [String: Double] = [:]
        for (name, arguments) in commands {
            let times = (0..<9).map { _ in ProcessRun(binary: binary, arguments: arguments, environment: environment).milliseconds }
            medians[name] = median(times)
            report("search.process.\(name)_ms", median(times), "ms")
            if let peak = peakResidentMegabytes(binary: binary, arguments: arguments, environment: environment) {
                report("search.process.\(name)_peak_rss_mb", peak, "MB")
            }
        }
        let floor = max(0.001, medians["floor"] ?? 1)
        for name in ["find", "find_cjk", "show_demo"] {
            report("search.process.\(name)_over_floor", (medians[name] ?? 0) / floor, "ratio")
        }
        showFormatFromTheCache(binary: binary, environment: environment)
    }

    /// A status bar's call, `show --format`, answered from a warm cache (the first call fills it
    /// from a stand-in for Open-Meteo; the service sees no other request).
    static func showFormatFromTheCache(binary: URL, environment: [String: String]) {
        guard let service = try? OpenMeteoStandIn(latency: 0.2) else { return }
        defer { service.stop() }
        var environment = environment
        environment["SKYCAST_OPEN_METEO_URL"] = service.baseURL.absoluteString
        let arguments = ["show", "--format", "%c %t", "Paris, FR"]
        _ = ProcessRun(binary: binary, arguments: arguments, environment: environment)
        let times = (0..<9).map { _ in ProcessRun(binary: binary, arguments: arguments, environment: environment).milliseconds }
        report("show.format.cached_ms", median(times), "ms")
        report("show.format.cached_requests", Double(service.requestCount), "requests")
    }
}

/// A process's peak resident memory. A child's `ru_maxrss` counts the memory of its parent while
/// it is forked and not yet exec'd, so a large parent (this benchmark) would stand in its figure:
/// a small python3 starts the process instead, and reports its children's peak.
func peakResidentMegabytes(binary: URL, arguments: [String], environment: [String: String]) -> Double? {
    let script = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        + "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    child.arguments = ["python3", "-c", script, binary.path] + arguments
    child.environment = environment
    let pipe = Pipe()
    child.standardOutput = pipe
    guard (try? child.run()) != nil else { return nil }
    child.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return Double(text.trimmingCharacters(in: .whitespacesAndNewlines)).map { $0 / 1024 }
}

/// One child process, timed from spawn to exit.
struct ProcessRun {
    var milliseconds = 0.0

    init(binary: URL, arguments: [String], environment: [String: String]) {
        let start = monotonicSeconds()
        var pid: pid_t = 0
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawn(&pid, binary.path, &actions, nil, argv, envp) == 0 else { return }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        milliseconds = (monotonicSeconds() - start) * 1000
    }
}
