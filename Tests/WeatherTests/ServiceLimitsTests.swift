import Foundation
import Models
import ServiceStandIns
import XCTest
@testable import Weather

/// skycast against stand-ins that keep the real services' limits (see their sources for where each
/// fact comes from).
final class ServiceLimitsTests: XCTestCase {
    var directory: URL!

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-limits-\(UUID())")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Distinct places (distinct latitudes, so that a refused one can be named).
    func cities(_ count: Int) -> [City] {
        (0..<count).map { index in
            let latitude: Double = -80 + Double(index) * 0.5
            return testCity(10_000 + index, latitude: latitude, longitude: 13.41)
        }
    }

    func manager(_ url: URL, clock: TestClock? = nil) -> NetworkManager {
        var configuration = fastConfiguration()
        configuration.pauseFile = directory.appendingPathComponent("pauses.json")
        let now: @Sendable () -> Date
        if let clock { now = clock.function } else { now = { Date() } }
        return NetworkManager(provider: OpenMeteoProvider(baseURL: url, clock: now), configuration: configuration, clock: now)
    }

    func testThreeHundredCitiesAndGeocodingStayWithinOpenMeteosConcurrency() async throws {
        let service = try OpenMeteoStandIn(latency: 0.2)
        defer { service.stop() }
        let network = manager(service.baseURL)
        let batch = cities(300)
        async let weather = network.weatherResults(for: batch)
        // Geocoding goes to the same address and shares the limit.
        let geocoder = Geocoder(baseURL: service.baseURL)
        let search = Task { _ = try? await geocoder.search("Paris", language: "en", network: network) }
        let results = await weather
        _ = await search.value
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 300, "\(results.compactMap { try? $0.get() }.count) cities arrived")
        XCTAssertEqual(service.refusals, [], "nothing refused")
        XCTAssertEqual(service.requestCount, 7, "six batches of 50 and the geocoder")
        XCTAssertEqual(service.weightedCalls, 300 + 1, "one weighted call a city (9 variables), one for the search")
        XCTAssertEqual(OpenMeteoProvider().weightPerCity, 1)
        XCTAssertEqual(ProviderID.openMeteo.callsPerCity, OpenMeteoProvider().weightPerCity, "the budget counts what the service counts")
    }

    func testAMinutelyLimitPausesUntilTheNextMinuteAcrossRestarts() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_764_417_630))  // 12:00:30 UTC
        var limits = OpenMeteoStandIn.Limits()
        limits.perMinute = 2
        let service = try OpenMeteoStandIn(limits: limits, latency: 0, clock: clock.function)
        defer { service.stop() }
        let network = manager(service.baseURL, clock: clock)
        for id in 0..<2 { _ = try await network.weatherResults(for: [testCity(id)])[0].get() }
        guard case let .failure(error) = await network.weatherResults(for: [testCity(9)])[0] else { return XCTFail("third call") }
        XCTAssertEqual(error.kind, .rateLimited(.minutely, reason: OpenMeteoStandIn.minutelyReason,
                                                retryAt: Date(timeIntervalSince1970: 1_764_417_660)))
        XCTAssertEqual(error.description, "City, DE: Open-Meteo: \(OpenMeteoStandIn.minutelyReason) — next try 12:01 UTC")
        XCTAssertEqual(service.requestCount, 3, "the refusal is not retried: it cannot succeed")
        // A new process (the next start, a `skycast show`) reads the pause and sends nothing.
        let restarted = manager(service.baseURL, clock: clock)
        guard case let .failure(paused) = await restarted.weatherResults(for: [testCity(9)])[0] else { return XCTFail("paused") }
        XCTAssertEqual(paused.kind, error.kind)
        XCTAssertEqual(service.requestCount, 3, "nothing is sent into a known pause")
        clock.advance(by: 31)
        _ = try await restarted.weatherResults(for: [testCity(9)])[0].get()
        XCTAssertEqual(service.requestCount, 4)
    }

    func testADailyLimitWaitsForUTCMidnight() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_764_417_600))
        var limits = OpenMeteoStandIn.Limits()
        limits.perDay = 0
        let service = try OpenMeteoStandIn(limits: limits, latency: 0, clock: clock.function)
        defer { service.stop() }
        guard case let .failure(error) = await manager(service.baseURL, clock: clock).weatherResults(for: [testCity(1)])[0] else {
            return XCTFail()
        }
        XCTAssertEqual(error.kind, .rateLimited(.daily, reason: OpenMeteoStandIn.dailyReason,
                                                retryAt: Date(timeIntervalSince1970: 1_764_460_800)))
        XCTAssertTrue(error.message.hasSuffix("— next try 00:00 UTC"), error.message)
        XCTAssertEqual(error.shortReason, "rate limited")
    }

    func testTooManyAtOnceBacksOffWithFewerInFlight() async throws {
        var limits = OpenMeteoStandIn.Limits()
        limits.waiting = 0
        let service = try OpenMeteoStandIn(limits: limits, latency: 0.3)
        defer { service.stop() }
        let network = manager(service.baseURL)
        let results = await network.weatherResults(for: cities(200))
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 200)
        XCTAssertFalse(service.refusals.isEmpty, "four at once meet a service that runs one and queues none")
        XCTAssertTrue(service.refusals.allSatisfy { $0 == OpenMeteoStandIn.concurrencyReason })
        XCTAssertEqual(service.peakRunning, 1)
    }

    func testAnOverloadedServiceIsAskedTwiceMoreAtMost() async throws {
        let service = try OpenMeteoStandIn(latency: 0)
        defer { service.stop() }
        service.overloaded = true
        guard case let .failure(error) = await manager(service.baseURL).weatherResults(for: [testCity(1)])[0] else { return XCTFail() }
        XCTAssertEqual(error.kind, .server(status: 503, reason: OpenMeteoStandIn.overloadedReason))
        XCTAssertEqual(service.requestCount, 3)
    }

    func testARefusedBatchIsSplitToFindTheCityTheServiceRefuses() async throws {
        let service = try OpenMeteoStandIn(latency: 0)
        defer { service.stop() }
        let batch = cities(50)
        service.unservableLatitudes = [String(format: "%.4f", batch[37].latitude)]
        let results = await manager(service.baseURL).weatherResults(for: batch)
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 49)
        guard case let .failure(error) = results[37] else { return XCTFail("the refused city") }
        XCTAssertEqual(error.kind, .server(status: 400, reason: OpenMeteoStandIn.unservableReason))
        XCTAssertEqual(error.city, batch[37])
        XCTAssertLessThanOrEqual(service.requestCount, 1 + 2 * 6, "about 2·log2(50) more requests")
    }

    func testMissingValuesStayMissing() async throws {
        let service = try OpenMeteoStandIn(latency: 0)
        defer { service.stop() }
        service.nullVariables = ["current.apparent_temperature", "current.relative_humidity_2m", "current.is_day",
                                 "hourly.precipitation_probability", "hourly.weather_code"]
        let weather = try await manager(service.baseURL).weatherResults(for: [testCity(1)])[0].get()
        XCTAssertNil(weather.current.apparentTemperature)
        XCTAssertNil(weather.current.humidity)
        XCTAssertNil(weather.current.isDay)
        XCTAssertNotNil(weather.current.windSpeed)
        XCTAssertTrue(weather.daily.allSatisfy { $0.precipitationProbability == nil && $0.weatherCode == nil }, "no invented 0 % or clear sky")
        XCTAssertGreaterThanOrEqual(weather.daily.count, 5)
        service.nullVariables = ["current.weather_code"]
        guard case let .failure(error) = await manager(service.baseURL).weatherResults(for: [testCity(2)])[0] else {
            return XCTFail("a city without a current weather code is not complete")
        }
        XCTAssertEqual(error.kind, .invalidResponse("no current conditions"))
    }

    func testHoursAfterADaylightSavingChangeFallOnTheRightDate() {
        // Berlin moves from +1 h to +2 h at 01:00 UTC on 2026-03-29. The service's one offset (+1 h)
        // would put 22:30 UTC of the 29th on the 29th; it is 00:30 on the 30th.
        let time = Date(timeIntervalSince1970: 1_774_823_400)  // 2026-03-29T22:30:00Z
        let zone = LocalZone(identifier: "Europe/Berlin", fallbackOffsetSeconds: 3600)
        XCTAssertEqual(zone.date(of: time), LocalDate(year: 2026, month: 3, day: 30))
        XCTAssertEqual(LocalZone(identifier: "", fallbackOffsetSeconds: 3600).date(of: time), LocalDate(year: 2026, month: 3, day: 29),
                       "without a zone, the offset the service sent")
    }

    func testOpenWeatherMapIsPacedToItsCallWindow() async throws {
        // The real window is 60 calls a minute; here 6 calls in 2 s, so the test takes seconds.
        let service = try OpenWeatherMapStandIn(callsPerWindow: 6, window: 2, latency: 0)
        defer { service.stop() }
        var configuration = fastConfiguration()
        configuration.limits = ServiceLimits(maxInFlight: 8, callWindow: (calls: 6, seconds: 2))
        let network = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "k", baseURL: service.baseURL), configuration: configuration)
        let results = await network.weatherResults(for: Array(cities(5)))
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 5)
        XCTAssertEqual(service.requestCount, 10)
        XCTAssertEqual(service.refusals, 0, "ten calls paced into windows of six")
    }

    func testOpenWeatherMapReasonsAreShownAsSent() async throws {
        let service = try OpenWeatherMapStandIn(callsPerWindow: 1, window: 3600, latency: 0)
        defer { service.stop() }
        service.inactiveKeys = ["new"]
        var configuration = fastConfiguration()
        configuration.limits = ServiceLimits(maxInFlight: 8, callWindow: nil)
        let fresh = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "new", baseURL: service.baseURL), configuration: configuration)
        guard case let .failure(unactivated) = await fresh.weatherResults(for: [testCity(1)])[0] else { return XCTFail() }
        XCTAssertEqual(unactivated.kind, .badAPIKey(reason: OpenWeatherMapStandIn.invalidKeyMessage))
        let network = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "k", baseURL: service.baseURL), configuration: configuration)
        guard case let .failure(blocked) = await network.weatherResults(for: [testCity(1)])[0] else { return XCTFail() }
        guard case let .rateLimited(limit, reason, retryAt) = blocked.kind else { return XCTFail("\(blocked.kind)") }
        XCTAssertEqual(limit, .unnamed)
        XCTAssertEqual(reason, OpenWeatherMapStandIn.blockedMessage)
        XCTAssertNotNil(retryAt)
    }
}
