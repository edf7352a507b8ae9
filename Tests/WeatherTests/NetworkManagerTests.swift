import Catalog
import Foundation
import LoopbackHTTP
import Models
import XCTest
@testable import Weather

final class NetworkManagerTests: XCTestCase {
    func testTwentyCitiesAreFetchedConcurrentlyWithinTheBound() async throws {
        let server = try LoopbackHTTPServer { request in
            .json(request.path.hasSuffix("/weather") ? Replies.owmCurrent() : Replies.owmForecast(), delay: 0.2)
        }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "k", baseURL: server.baseURL),
                                     configuration: fastConfiguration())
        let cities = (0..<20).map { testCity($0, latitude: Double($0)) }
        var arrived: [Int] = []
        for await result in network.weather(for: cities) {
            arrived.append(try result.get().city.id)
        }
        XCTAssertEqual(Set(arrived), Set(0..<20))
        XCTAssertEqual(server.requestCount, 40)
        // OpenWeatherMap's limit of 8 requests on the wire: four cities at a time, two requests each.
        XCTAssertEqual(server.peakInFlight, 8)
    }

    func testRetriesA503ThenSucceeds() async throws {
        let calls = Counter()
        let server = try LoopbackHTTPServer { _ in
            calls.increment() == 1 ? .json(#"{"error":true,"reason":"busy"}"#, status: 503) : .json(Replies.openMeteoLocation())
        }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL), configuration: fastConfiguration())
        let result = await network.weatherResults(for: [testCity(1)])[0]
        XCTAssertNoThrow(try result.get())
        XCTAssertEqual(server.requestCount, 2)
    }

    func testGivesUpAfterThreeAttempts() async throws {
        let server = try LoopbackHTTPServer { _ in .json(#"{"error":true,"reason":"down"}"#, status: 500) }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL), configuration: fastConfiguration())
        guard case let .failure(error) = await network.weatherResults(for: [testCity(1)])[0] else { return XCTFail() }
        XCTAssertEqual(error.kind, .server(status: 500, reason: "down"))
        XCTAssertEqual(server.requestCount, 3)
    }

    func testRetryAfterIsHonoured() async throws {
        let calls = Counter()
        let server = try LoopbackHTTPServer { _ in
            if calls.increment() == 1 {
                return LoopbackHTTPServer.Response(status: 429, headers: ["Retry-After": "1"], body: Data("{}".utf8))
            }
            return .json(Replies.openMeteoLocation())
        }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL), configuration: fastConfiguration())
        let result = await network.weatherResults(for: [testCity(1)])[0]
        XCTAssertNoThrow(try result.get())
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        // The backoff alone would retry after ≤ 75 ms; the server asked for a second.
        XCTAssertGreaterThanOrEqual(requests[1].receivedAt - requests[0].receivedAt, 0.99)
    }

    func testTimeoutIsRetriedThenReported() async throws {
        let server = try LoopbackHTTPServer { _ in .json(Replies.openMeteoLocation(), delay: 3) }
        defer { server.stop() }
        var configuration = fastConfiguration(timeout: 1)
        configuration.maxAttempts = 2
        let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL), configuration: configuration)
        guard case let .failure(error) = await network.weatherResults(for: [testCity(1)])[0] else { return XCTFail() }
        guard case let .timeout(seconds, attempts) = error.kind else { return XCTFail("\(error.kind)") }
        XCTAssertEqual(attempts, 2)
        XCTAssertTrue((2...4).contains(seconds), "two 1 s timeouts and a short backoff took \(seconds) s")
        XCTAssertEqual(error.message, "Open-Meteo: no answer after 2 tries (\(seconds) s)")
        XCTAssertEqual(error.shortReason, "timeout")
        XCTAssertEqual(server.requestCount, 2)
    }

    func testIdenticalRequestsInFlightAreCoalesced() async throws {
        let server = try LoopbackHTTPServer { _ in .json(Replies.openMeteoLocation(), delay: 0.3) }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL), configuration: fastConfiguration())
        let url = server.baseURL.appendingPathComponent("v1/forecast")
        async let first = network.get(url)
        async let second = network.get(url)
        let (a, b) = try await (first, second)
        XCTAssertEqual(a.body, b.body)
        XCTAssertEqual(server.requestCount, 1)
        let requestsLeft = await network.requestsInFlight
        XCTAssertEqual(requestsLeft, 0)
    }

    func testCancellingWithRequestsInFlightNeverHangs() async throws {
        let server = try LoopbackHTTPServer { request in
            .json(request.path.hasSuffix("/weather") ? Replies.owmCurrent() : Replies.owmForecast(), delay: 1.5)
        }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "k", baseURL: server.baseURL),
                                     configuration: fastConfiguration(timeout: 3))
        var released = 0
        for round in 0..<100 {
            let cities = [testCity(round * 2), testCity(round * 2 + 1)]
            let task = Task { () -> [Result<CityWeather, WeatherError>] in
                var results: [Result<CityWeather, WeatherError>] = []
                for await result in network.weather(for: cities) { results.append(result) }
                return results
            }
            try await Task.sleep(nanoseconds: UInt64(round % 5) * 2_000_000)
            task.cancel()
            // The caller is released long before the 1.5 s replies; a hang fails the test instead of the suite.
            guard let results = await value(of: task, within: 1.0) else {
                XCTFail("round \(round): the caller was not released within 1 s of cancelling")
                continue
            }
            released += 1
            for case let .failure(error) in results {
                XCTAssertEqual(error.kind, .cancelled, "round \(round): a cancelled fetch reports cancellation, not \(error)")
            }
        }
        XCTAssertEqual(released, 100, "every caller was released")
    }

    /// Resumes a continuation once, whichever of two racers comes first.
    private final class Once<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T?, Never>?
        init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = continuation }
        func resume(_ value: T?) {
            lock.lock()
            let pending = continuation
            continuation = nil
            lock.unlock()
            pending?.resume(returning: value)
        }
    }

    /// The task's value, or nil when it has not finished within `seconds` (the task is left running).
    private func value<T: Sendable>(of task: Task<T, Never>, within seconds: Double) async -> T? {
        await withCheckedContinuation { continuation in
            let once = Once(continuation)
            Task { once.resume(await task.value) }
            Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                once.resume(nil)
            }
        }
    }

    func testCacheServesFreshEntriesAndRefreshesStaleOnes() async throws {
        let server = try LoopbackHTTPServer { _ in .json(Replies.openMeteoLocation()) }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-cache-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        let cache = WeatherCache(directory: directory, timeToLive: 600)
        let provider = OpenMeteoProvider(baseURL: server.baseURL, clock: clock.function)
        let network = NetworkManager(provider: provider, configuration: fastConfiguration(), cache: cache, clock: clock.function)
        let city = testCity(42)
        _ = try await network.weatherResults(for: [city])[0].get()
        XCTAssertEqual(server.requestCount, 1)

        clock.advance(by: 300)
        var results: [CityWeather] = []
        for await result in network.weather(for: [city]) { results.append(try result.get()) }
        XCTAssertEqual(server.requestCount, 1, "a fresh entry replaces the request")
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(cache.load(provider: .openMeteo, city: city, now: clock.date)?.age, 300)

        clock.advance(by: 400)
        results = []
        for await result in network.weather(for: [city]) { results.append(try result.get()) }
        XCTAssertEqual(server.requestCount, 2, "a stale entry is refreshed")
        XCTAssertEqual(results.count, 2, "…after being served at once")
        XCTAssertEqual(results[0].fetchedAt, clock.date.addingTimeInterval(-700))
        XCTAssertEqual(results[1].fetchedAt, clock.date)

        let file = cache.fileURL(provider: .openMeteo, city: city)
        // An entry with impossible values is ignored as well.
        let entry = try String(contentsOf: file, encoding: .utf8)
        try Data(entry.replacingOccurrences(of: "\"temperature\":4.5", with: "\"temperature\":1e300").utf8).write(to: file)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).contains("1e300"))
        XCTAssertNil(cache.load(provider: .openMeteo, city: city, now: clock.date))

        // A corrupt entry is ignored and replaced.
        try Data("{not json".utf8).write(to: file)
        XCTAssertNil(cache.load(provider: .openMeteo, city: city, now: clock.date))
        _ = try await network.weatherResults(for: [city])[0].get()
        XCTAssertNotNil(cache.load(provider: .openMeteo, city: city, now: clock.date))
    }

    func testGeocoderToleratesMissingFieldsAndSanitises() async throws {
        let replies = [
            "Reykjavik": Replies.geocoding([(3413829, "Reykjavík"), (9999, "Evil\\u001b[2JTown")]),
            "sparse": Replies.geocoding([(5, "Sparse")], dropFields: true),
            "none": #"{"generationtime_ms":0.3}"#,
        ]
        let server = try LoopbackHTTPServer { request in
            XCTAssertEqual(request.path, "/v1/search")
            XCTAssertEqual(request.query["language"], "de")
            return .json(replies[request.query["name"] ?? ""] ?? "{}")
        }
        defer { server.stop() }
        let network = NetworkManager(provider: DemoProvider(), configuration: fastConfiguration())
        let geocoder = Geocoder(baseURL: server.baseURL)
        let found = try await geocoder.search("Reykjavik", language: "de", network: network)
        XCTAssertEqual(found.map(\.name), ["Reykjavík", "EvilTown"])
        XCTAssertEqual(found[0].countryCode, "IS")
        XCTAssertEqual(found[0].timeZone, "Atlantic/Reykjavik")
        let sparse = try await geocoder.search("sparse", language: "de", network: network)
        XCTAssertEqual(sparse.first?.countryCode, "")
        XCTAssertEqual(sparse.first?.latitude, 10.5)
        let none = try await geocoder.search("none", language: "de", network: network)
        XCTAssertEqual(none, [])
        XCTAssertEqual(Geocoder.language(fromLocale: "de_CH.UTF-8"), "de")
        XCTAssertEqual(Geocoder.language(fromLocale: "C.UTF-8"), "en")
        XCTAssertEqual(Geocoder.language(fromLocale: nil), "en")

        // Merged with the catalog: deduplicated by id.
        let local = [CityMatch(city: City(id: 3413829, name: "Reykjavík", countryCode: "IS", countryName: "Iceland", admin1: "",
                                          latitude: 64.1, longitude: -21.9, timeZone: "", population: 1), kind: .wholeName)]
        XCTAssertEqual(Catalog.merging(local: local, online: found, limit: 10).map(\.city.id), [3413829, 9999])
    }

    func testGeocoderReportsAServerThatIsDown() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        let url = server.baseURL
        server.stop()
        let network = NetworkManager(provider: DemoProvider(), configuration: fastConfiguration())
        do {
            _ = try await Geocoder(baseURL: url).search("x", network: network)
            XCTFail("expected an error")
        } catch {
            guard case .offline = error.kind else { return XCTFail("\(error)") }
            XCTAssertTrue(error.message.hasPrefix("cannot reach the geocoder: "), "it names the geocoder: \(error.message)")
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The new value.
    func increment() -> Int {
        lock.lock(); defer { lock.unlock() }
        value += 1
        return value
    }
}
