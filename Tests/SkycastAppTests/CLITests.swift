import Foundation
import LoopbackHTTP
import Models
import ServiceStandIns
import SkycastCore
import Weather
import TestFixtures
import TextLayout
import XCTest
@testable import SkycastApp

final class CLITests: XCTestCase {
    final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var out = ""
        private(set) var err = ""

        var output: CLI.Output {
            CLI.Output(out: { [self] text in lock.lock(); out += text + "\n"; lock.unlock() },
                       err: { [self] text in lock.lock(); err += text + "\n"; lock.unlock() })
        }
    }

    var home: URL!

    override func setUp() {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-cli-\(UUID())")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: home)
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:], terminal: Bool = false) async -> (Int32, Captured) {
        let captured = Captured()
        let environment = ["HOME": home.path, "LANG": "C.UTF-8"].merging(extra) { $1 }
        var output = captured.output
        output.isTerminal = terminal
        let status = await CLI.run(arguments: arguments, environment: environment, output: output)
        return (status, captured)
    }

    func testOptionParsing() throws {
        XCTAssertEqual(try Options.parse([]).command, .interactive)
        let show = try Options.parse(["show", "--units=imperial", "Paris, FR", "--timeout", "3", "Tokyo"])
        XCTAssertEqual(show.command, .show(cities: ["Paris, FR", "Tokyo"]))
        XCTAssertEqual(show.units, .imperial)
        XCTAssertEqual(show.timeoutSeconds, 3)
        XCTAssertEqual(try Options.parse(["find", "new", "york", "--limit", "3"]).command, .find(query: "new york"))
        XCTAssertEqual(try Options.parse(["bookmarks", "add", "Paris,", "FR"]).command, .bookmarks(.add("Paris, FR")))
        XCTAssertEqual(try Options.parse(["show", "--", "--weird"]).command, .show(cities: ["--weird"]))
        for (arguments, message) in [
            (["--bogus"], "unknown option '--bogus' (see skycast --help)"),
            (["--units", "kelvin"], "--units must be metric or imperial, not 'kelvin'"),
            (["--timeout", "0.5"], "--timeout takes whole seconds from 1 to 120, not '0.5'"),
            (["--provider"], "--provider needs a value"),
            (["--demo=yes"], "--demo takes no value"),
            (["weather"], "unknown command 'weather' (show, find, bookmarks; see skycast --help)"),
            (["find"], "find needs a query, e.g. skycast find zurich"),
            (["bookmarks", "frobnicate"], "unknown bookmarks command 'frobnicate' (list, add, remove)"),
            (["--\u{1B}[2J"], "unknown option '--' (see skycast --help)"),
        ] {
            XCTAssertThrowsError(try Options.parse(arguments)) { XCTAssertEqual(($0 as? Options.UsageError)?.message, message) }
        }
    }

    func testHelpVersionAboutAndUsageErrors() async {
        var (status, captured) = await run(["--help"])
        XCTAssertEqual(status, 0)
        for word in ["skycast show", "skycast find", "skycast bookmarks", "--demo", "--provider", "--units", "--timeout",
                     "--no-color", "--ascii", "--no-animation", "--json"] {
            XCTAssertTrue(captured.out.contains(word), word)
        }
        (status, captured) = await run(["--version"])
        XCTAssertEqual(captured.out, "skycast \(SkycastVersion.current)\n")
        (status, captured) = await run(["--about"])
        XCTAssertTrue(captured.out.contains("GeoNames") && captured.out.contains("CC BY 4.0") && captured.out.contains("Open-Meteo"))
        (status, captured) = await run(["--nope"])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(captured.err, "unknown option '--nope' (see skycast --help)\n")
    }

    func testFind() async throws {
        var (status, captured) = await run(["find", "--json", "--limit", "2", "서울"])
        XCTAssertEqual(status, 0)
        let results = try JSONSerialization.jsonObject(with: Data(captured.out.utf8)) as? [[String: Any]]
        XCTAssertEqual(results?.first?["name"] as? String, "Seoul")
        XCTAssertEqual(results?.first?["country_code"] as? String, "KR")
        XCTAssertEqual(results?.first?["match"] as? String, "name")
        XCTAssertEqual(results?.first?["country"] as? String, "South Korea")
        XCTAssertEqual(results?.first?["timezone"] as? String, "Asia/Seoul")
        (status, captured) = await run(["find", "Portland, Maine"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(captured.out.hasPrefix("4975802   Portland, Maine, US"), captured.out)
        (status, captured) = await run(["find", String(repeating: "x", count: 10_000)])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(captured.err, "the query is 10000 characters long; at most 200 are searched\n")
        let server = try LoopbackHTTPServer { _ in .json(#"{"generationtime_ms":0.1}"#) }
        defer { server.stop() }
        (status, captured) = await run(["find", "Qxqxqxqz"], environment: ["SKYCAST_GEOCODING_URL": server.baseURL.absoluteString])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(captured.err, "no city matches 'Qxqxqxqz'\n")
    }

    func testShowExitCodesAgainstALoopbackServer() async throws {
        let server = try LoopbackHTTPServer { request in
            let count = request.query["latitude"]?.split(separator: ",").count ?? 1
            let one = Self.location
            return .json(count == 1 ? one : "[" + Array(repeating: one, count: count).joined(separator: ",") + "]")
        }
        defer { server.stop() }
        let environment = ["SKYCAST_OPEN_METEO_URL": server.baseURL.absoluteString]
        var (status, captured) = await run(["show", "--no-cache", "Paris, FR", "東京"], environment: environment)
        XCTAssertEqual(status, 0, captured.err)
        XCTAssertTrue(captured.out.contains("Paris, FR"))
        XCTAssertTrue(captured.out.contains("Tokyo, JP"))
        XCTAssertTrue(captured.out.contains("Weather data by Open-Meteo.com"))
        XCTAssertEqual(server.requestCount, 1, "both cities in one request")

        (status, captured) = await run(["show", "--json", "--units", "imperial", "--no-cache", "Paris, FR"], environment: environment)
        let json = try JSONSerialization.jsonObject(with: Data(captured.out.utf8)) as? [[String: Any]]
        let current = json?.first?["current"] as? [String: Any]
        XCTAssertEqual(current?["temperature"] as? Double, 50, "10 °C in °F")
        XCTAssertEqual(json?.first?["demo"] as? Bool, false)
        // From the city's today (Paris: UTC+1 or +2 of a UTC day): six or seven days.
        XCTAssertGreaterThanOrEqual((json?.first?["daily"] as? [Any])?.count ?? 0, 6)
        let today = ISO8601DateFormatter.localDate(TimeZone(identifier: "Europe/Paris")!)
        XCTAssertEqual(((json?.first?["daily"] as? [[String: Any]])?.first?["date"] as? String), today, "daily[0] is the city's today")
        // One city object everywhere: the same fields as find and bookmarks list, no always-null field.
        XCTAssertEqual(Set(json?.first?.keys.map { $0 } ?? []),
                       ["id", "name", "admin1", "country_code", "country", "latitude", "longitude", "timezone", "population",
                        "provider", "demo", "fetched_at", "units", "current", "daily"])
        XCTAssertEqual(json?.first?["country"] as? String, "France")
        XCTAssertTrue(captured.out.contains(#""timezone" : "Europe/Paris""#), "slashes are not escaped")

        (status, captured) = await run(["show", "--no-cache", "Paris, FR", "Qxqxqxq"], environment: environment)
        XCTAssertEqual(status, 1, "partial failure")
        XCTAssertTrue(captured.out.contains("Paris, FR"))
        XCTAssertTrue(captured.err.contains("unknown city 'Qxqxqxq'"))

        (status, captured) = await run(["show"], environment: environment)
        XCTAssertEqual(status, 2)
        XCTAssertTrue(captured.err.contains("no bookmarks yet"))

        (status, captured) = await run(["bookmarks", "add", "Lodnon"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(captured.out, "bookmarked London, England, GB\n")
        (status, captured) = await run(["show", "--no-cache"], environment: environment)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(captured.out.contains("London, GB"))
        (status, captured) = await run(["bookmarks", "list"])
        XCTAssertEqual(captured.out, "2643743\tLondon, England, GB\n")
        (status, captured) = await run(["bookmarks", "remove", "london"])
        XCTAssertEqual(status, 0)
        (status, captured) = await run(["bookmarks", "remove", "london"])
        XCTAssertEqual(status, 1)

        (status, captured) = await run(["show", "--demo", "Reykjavik"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(captured.out.hasPrefix("DEMO DATA"))
    }

    /// One location as Open-Meteo sends it, from today's UTC midnight on (what skycast asks for:
    /// current conditions and hourly values).
    static let location: String = {
        let base = Int(Date().timeIntervalSince1970) / 86_400 * 86_400
        let hours = (0..<168).map { String(base + $0 * 3600) }.joined(separator: ",")
        let temperatures = (0..<168).map { _ in "10" }.joined(separator: ",")
        let codes = Array(repeating: "3", count: 168).joined(separator: ",")
        return """
        {"utc_offset_seconds":0,"current":{"time":\(base),"temperature_2m":10,"apparent_temperature":8,"relative_humidity_2m":70,
        "weather_code":3,"wind_speed_10m":10,"is_day":1},"hourly":{"time":[\(hours)],"temperature_2m":[\(temperatures)],
        "weather_code":[\(codes)],"precipitation_probability":[\(codes)]}}
        """
    }()

    func testShowPrintsNullForMissingValuesAndRespectsAStoredPause() async throws {
        let service = try OpenMeteoStandIn(latency: 0)
        defer { service.stop() }
        service.nullVariables = ["current.apparent_temperature", "hourly.precipitation_probability"]
        let environment = ["SKYCAST_OPEN_METEO_URL": service.baseURL.absoluteString]
        var (status, captured) = await run(["show", "--json", "--no-cache", "Paris, FR"], environment: environment)
        XCTAssertEqual(status, 0, captured.err)
        XCTAssertTrue(captured.out.contains(#""apparent_temperature" : null"#), captured.out)
        XCTAssertTrue(captured.out.contains(#""precipitation_probability" : null"#))
        XCTAssertFalse(captured.out.contains(#""precipitation_probability" : 0"#), "missing is not zero")

        // The service's daily limit: the reason and the next try on stderr, exit 1; the next show
        // reads the stored pause and sends nothing.
        var limits = OpenMeteoStandIn.Limits()
        limits.perDay = 0
        let limited = try OpenMeteoStandIn(limits: limits, latency: 0)
        defer { limited.stop() }
        let limitedEnvironment = ["SKYCAST_OPEN_METEO_URL": limited.baseURL.absoluteString]
        (status, captured) = await run(["show", "--no-cache", "Paris, FR"], environment: limitedEnvironment)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(captured.err, "Paris, FR: Open-Meteo: \(OpenMeteoStandIn.dailyReason) — next try 00:00 UTC\n")
        XCTAssertEqual(limited.requestCount, 1)
        (status, captured) = await run(["show", "--no-cache", "Paris, FR", "Tokyo"], environment: limitedEnvironment)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(captured.err.split(separator: "\n").count, 2, "each failed city is named: \(captured.err)")
        XCTAssertEqual(limited.requestCount, 1, "nothing is sent into the stored pause")
    }

    /// --help, the man page and the completions come from one reference: every option in it parses,
    /// and each shows up in all three.
    func testTheReferenceDescribesTheOptionsThatParse() async throws {
        for option in Reference.options {
            for flag in option.flags {
                let arguments = option.argument == nil ? [flag] : [flag, option.values.first ?? "3"]
                XCTAssertNoThrow(try Options.parse(arguments), "\(flag)")
                XCTAssertTrue(Reference.helpText.contains(flag), "--help lists \(flag)")
                XCTAssertTrue(Reference.manPage.contains(flag.replacingOccurrences(of: "-", with: "\\-")), "the man page lists \(flag)")
                for shell in Reference.shells {
                    XCTAssertTrue(Reference.completion(for: shell)?.contains(flag.drop { $0 == "-" }) ?? false, "\(shell) completes \(flag)")
                }
            }
        }
        for entry in Keymap.entries { XCTAssertTrue(Reference.manPage.contains(entry.label.replacingOccurrences(of: "-", with: "\\-"))) }
        var (status, captured) = await run(["completions", "bash"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(captured.out.contains("complete -F _skycast skycast"))
        (status, captured) = await run(["completions", "tcsh"])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(captured.err, "completions needs one shell: bash, zsh, fish\n")
        (status, captured) = await run(["manpage"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(captured.out.hasPrefix(".TH SKYCAST 1"))
    }

    func testFormatPrintsEveryCodeAndRefusesUnknownOnes() async throws {
        let (status, captured) = await run(["show", "--demo", "--format", "%l|%c|%C|%t|%f|%h|%w|%p|%x|%T|%%", "Seoul"])
        XCTAssertEqual(status, 0, captured.err)
        let fields = captured.out.trimmingCharacters(in: .newlines).split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(fields.count, 11, captured.out)
        XCTAssertEqual(fields[0], "Seoul")
        XCTAssertEqual(fields[10], "%")
        XCTAssertTrue(fields[3].hasSuffix("°C") && fields[4].hasSuffix("°C"), captured.out)
        XCTAssertTrue(fields[5].hasSuffix("%") && fields[7].hasSuffix("%"))
        XCTAssertTrue(fields[6].hasSuffix("km/h") && "↓↙←↖↑↗→↘".contains(fields[6].first!), "wind with its arrow: \(fields[6])")
        XCTAssertTrue(fields[8].contains("°/"))
        XCTAssertTrue(fields[9].range(of: #"^\d\d:\d\d$"#, options: .regularExpression) != nil)
        for bad in ["%q", "ends with %"] {
            XCTAssertThrowsError(try Options.parse(["show", "--format", bad]))
        }
        XCTAssertEqual((try? Options.parse(["show", "--format", "%z"])) == nil, true)
        let (badStatus, badOutput) = await run(["show", "--format", "%z", "Seoul"])
        XCTAssertEqual(badStatus, 2)
        XCTAssertTrue(badOutput.err.contains("unknown code %z"))
    }

    func testFormatAnswersFromTheCacheAndSaysWhenItIsStale() async throws {
        let service = try OpenMeteoStandIn(latency: 0)
        var environment = ["SKYCAST_OPEN_METEO_URL": service.baseURL.absoluteString, "NO_COLOR": "1"]
        for _ in 0..<20 {
            let (status, captured) = await run(["show", "--format", "%l %t", "Paris, FR"], environment: environment)
            XCTAssertEqual(status, 0, captured.err)
            XCTAssertTrue(captured.out.hasPrefix("Paris "))
            XCTAssertFalse(captured.out.contains("\u{1B}"))
        }
        XCTAssertEqual(service.requestCount, 1, "twenty calls in a row: one request, the rest from the cache")
        service.stop()
        // The service gone and the cache older than its ten minutes: the cached line, marked.
        let cache = home.appendingPathComponent(".cache/skycast")
        for file in try FileManager.default.contentsOfDirectory(atPath: cache.path) where file.hasPrefix("open-meteo-") {
            let url = cache.appendingPathComponent(file)
            var weather = try JSONDecoder.cache.decode(CityWeather.self, from: Data(contentsOf: url))
            weather.fetchedAt = Date().addingTimeInterval(-3600)
            try JSONEncoder.cache.encode(weather).write(to: url)
        }
        environment["SKYCAST_OPEN_METEO_URL"] = "http://127.0.0.1:1"
        let (status, captured) = await run(["show", "--format", "%l %t", "--timeout", "2", "Paris, FR"], environment: environment)
        XCTAssertEqual(status, 0, captured.err)
        XCTAssertTrue(captured.out.hasPrefix("~Paris "), captured.out)
    }

    func testShowFitsTheWidthAndColoursOnlyATerminal() async throws {
        for width in [40, 80, 200] {
            let (status, captured) = await run(["show", "--demo", "Seoul", "São Paulo"], environment: ["COLUMNS": String(width)])
            XCTAssertEqual(status, 0)
            let lines = captured.out.split(separator: "\n").map(String.init)
            XCTAssertTrue(lines.allSatisfy { TerminalText.width($0) <= width }, "\(width): \(lines)")
            XCTAssertTrue(lines.contains { $0.contains("São Paulo, BR") }, "names are never cut: \(lines)")
            XCTAssertEqual(lines[1].contains("Today"), width >= 80, "the header names the days where they show")
            XCTAssertEqual(lines.contains { $0.contains("Partly") || $0.contains("clear") || $0.contains("Overcast") || $0.contains("Rain") || $0.contains("Fog") || $0.contains("Drizzle") || $0.contains("Snow") || $0.contains("Thunder") },
                           width >= 80, "the condition words go before the name and the temperature")
            XCTAssertFalse(captured.out.contains("\u{1B}"), "a pipe gets no escape sequences")
        }
        var (_, captured) = await run(["show", "--demo", "Seoul"], environment: ["TERM": "xterm-256color"], terminal: true)
        XCTAssertTrue(captured.out.contains("\u{1B}["), "a terminal gets colours")
        (_, captured) = await run(["show", "--demo", "Seoul"], environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], terminal: true)
        XCTAssertFalse(captured.out.contains("\u{1B}"))
        (_, captured) = await run(["show", "--demo", "--ascii", "Seoul"], environment: ["TERM": "xterm-256color"], terminal: true)
        XCTAssertTrue(captured.out.unicodeScalars.allSatisfy { $0.isASCII }, captured.out)
    }

    func testAddingABookmarkedCityAgainSaysSo() async throws {
        var (status, captured) = await run(["bookmarks", "add", "Reykjavik"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(captured.out, "bookmarked Reykjavík, Capital Region, IS\n")
        (status, captured) = await run(["bookmarks", "add", "reykjavík"])
        XCTAssertEqual(status, 0)
        XCTAssertEqual(captured.out, "Reykjavík, Capital Region, IS is already bookmarked\n")
    }

    func testSameNamedCitiesReadApart() async throws {
        var (status, captured) = await run(["show", "--demo", "Springfield"])
        XCTAssertEqual(status, 0)
        XCTAssertTrue(captured.out.contains("Springfield, Missouri, US"), "named fully: \(captured.out)")
        XCTAssertTrue(captured.err.contains("'Springfield' is") && captured.err.contains("skycast find \"Springfield\""), captured.err)
        (status, captured) = await run(["show", "--demo", "Portland, Oregon", "Portland, Maine"])
        XCTAssertTrue(captured.out.contains("Portland, Oregon, US") && captured.out.contains("Portland, Maine, US"), captured.out)
        XCTAssertEqual(captured.err, "", "a qualified name is not ambiguous")
        let names = City.displayNames([Fixtures.city(1, "Portland", "US", admin1: "Oregon"), Fixtures.city(2, "Portland", "US", admin1: "Maine"),
                                       Fixtures.city(3, "Paris", "FR", admin1: "Île-de-France")])
        XCTAssertEqual(names, [1: "Portland, Oregon, US", 2: "Portland, Maine, US", 3: "Paris, FR"])
    }
}

extension ISO8601DateFormatter {
    /// Today's date in `zone`, "2026-11-29".
    static func localDate(_ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date())
    }
}

extension JSONDecoder {
    static var cache: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}

extension JSONEncoder {
    static var cache: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }
}
