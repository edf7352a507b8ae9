import Catalog
import Foundation
import LoopbackHTTP
import Models
import TestFixtures
import XCTest
@testable import Weather

final class ProviderDecodingTests: XCTestCase {
    func testOpenMeteoSingleCityObjectWithNulls() async throws {
        let server = try LoopbackHTTPServer { request in
            XCTAssertEqual(request.path, "/v1/forecast")
            XCTAssertEqual(request.query["timezone"], "auto")
            XCTAssertTrue(request.headers["user-agent"]?.hasPrefix("skycast/") ?? false)
            return .json(Replies.openMeteoLocation(nullHourEvery: 10))
        }
        defer { server.stop() }
        let clock = TestClock()
        let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL, clock: clock.function),
                                     configuration: fastConfiguration())
        let results = await network.weatherResults(for: [testCity(1, "Berlin")])
        let weather = try XCTUnwrap(results.first).get()
        XCTAssertEqual(weather.current.temperature, 4.5)
        XCTAssertEqual(weather.current.weatherCode, WeatherCode(61))
        XCTAssertEqual(weather.current.humidity, 81)
        XCTAssertEqual(weather.daily.count, 7)
        XCTAssertEqual(weather.daily[0].date, LocalDate(year: 2025, month: 11, day: 29))
        XCTAssertEqual(weather.daily[0].high, 9.5, "the highest hour of the local day")
        XCTAssertEqual(weather.daily[0].low, -1.5, "midnight's null is not a zero")
        XCTAssertNil(weather.daily[0].precipitationProbability, "a null array stays missing")
        XCTAssertEqual(weather.hourly.count, 168, "an hour with a null temperature keeps its place")
        XCTAssertNil(weather.hourly[0].temperature)
        XCTAssertEqual(weather.utcOffsetSeconds, 3600)
        XCTAssertEqual(weather.provider, .openMeteo)
        XCTAssertFalse(weather.isDemo)
        XCTAssertEqual(weather.fetchedAt, clock.date)
    }

    func testOpenMeteoManyCitiesInOneRequestAndArrayReply() async throws {
        let server = try LoopbackHTTPServer { request in
            let count = request.query["latitude"]?.split(separator: ",").count ?? 0
            let items = (0..<count).map { Replies.openMeteoLocation(temperature: $0 == 2 ? nil : Double($0)) }
            return .json("[\(items.joined(separator: ","))]")
        }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL), configuration: fastConfiguration())
        let cities = (0..<20).map { testCity(100 + $0, latitude: Double($0)) }
        let results = await network.weatherResults(for: cities)
        XCTAssertEqual(server.requestCount, 1, "20 cities go in one request")
        XCTAssertEqual(try results[5].get().current.temperature, 5)
        guard case let .failure(error) = results[2] else { return XCTFail("a city with a null temperature has no row") }
        XCTAssertEqual(error.city?.id, 102)
        XCTAssertEqual(error.kind, .invalidResponse("no current conditions"))
        XCTAssertEqual(results.filter { (try? $0.get()) != nil }.count, 19)
        let latitudes = server.requests[0].query["latitude"]
        XCTAssertEqual(latitudes?.split(separator: ",").first, "0.0000")
    }

    func testOpenMeteoErrorsAreClear() async throws {
        let cases: [(LoopbackHTTPServer.Response, WeatherError.Kind)] = [
            (.json(#"{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 100.0."}"#, status: 400),
             .server(status: 400, reason: "Latitude must be in range of -90 to 90°. Given: 100.0.")),
            (.json(#"{"error":true,"reason":"Too many requests"}"#, status: 429), .rateLimited(.unnamed, reason: "Too many requests", retryAt: nil)),
            (.json(#"{"error":true,"reason":"\u001b[31mred\u0007"}"#, status: 503), .server(status: 503, reason: "red")),
            (.json(#"{"latitude": 1, "current": {"#), .invalidResponse("malformed JSON")),
            (.json(#"[{"utc_offset_seconds":0}]"#), .invalidResponse("no current conditions")),
            (LoopbackHTTPServer.Response(status: 200, body: Data(Replies.openMeteoLocation().utf8), truncateBodyAt: 300),
             .offline("connection lost")),
            (.json(Replies.openMeteoLocation(hours: 72)), .invalidResponse("only 3 days of forecast")),
            (.json(Replies.openMeteoLocation(temperature: 1e308)), .invalidResponse("implausible temperature")),
            (.json(Replies.openMeteoLocation(offset: Int(Int32.max))), .invalidResponse("implausible")),
            (LoopbackHTTPServer.Response(status: 200, body: Data(repeating: 0x20, count: 6_000_000)), .tooLarge(limit: 5_000_000)),
        ]
        for (response, expected) in cases {
            let server = try LoopbackHTTPServer { _ in response }
            defer { server.stop() }
            var configuration = fastConfiguration()
            configuration.backoffBase = 0.01
            let network = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL), configuration: configuration)
            let result = await network.weatherResults(for: [testCity(7)])[0]
            guard case let .failure(error) = result else { XCTFail("expected \(expected)"); continue }
            if case let .rateLimited(limit, reason, _) = expected, case let .rateLimited(gotLimit, gotReason, retryAt) = error.kind {
                XCTAssertEqual(gotLimit, limit)
                XCTAssertEqual(gotReason, reason)
                XCTAssertNotNil(retryAt, "a limit the service did not name pauses for a minute")
            } else if case .invalidResponse = expected, case let .invalidResponse(reason) = error.kind {
                if case let .invalidResponse(expectedReason) = expected {
                    XCTAssertTrue(reason.hasPrefix(expectedReason), "\(reason) vs \(expectedReason)")
                }
            } else if case .offline = expected {
                if case .offline = error.kind {} else if case .invalidResponse = error.kind {} else { XCTFail("\(error.kind)") }
            } else {
                XCTAssertEqual(error.kind, expected)
            }
            XCTAssertEqual(error.city?.id, 7)
            XCTAssertFalse(error.message.isEmpty)
            XCTAssertFalse(error.message.contains("\u{1B}"))
        }
    }

    func testOpenWeatherMapCurrentAndForecastTogether() async throws {
        let server = try LoopbackHTTPServer { request in
            XCTAssertEqual(request.query["appid"], "secret")
            XCTAssertEqual(request.query["units"], "metric")
            return .json(request.path.hasSuffix("/weather") ? Replies.owmCurrent() : Replies.owmForecast(), delay: 0.1)
        }
        defer { server.stop() }
        let network = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "secret", baseURL: server.baseURL),
                                     configuration: fastConfiguration())
        let weather = try await network.weatherResults(for: [testCity(2643743, "London")])[0].get()
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertEqual(server.peakInFlight, 2, "current and forecast are fetched together")
        XCTAssertEqual(weather.current.temperature, 8.3)
        XCTAssertEqual(weather.current.weatherCode, WeatherCode(61), "OWM 500 is WMO 61")
        XCTAssertEqual(weather.current.windSpeed ?? .nan, 18, accuracy: 0.001, "m/s become km/h")
        XCTAssertEqual(weather.current.isDay, true)
        XCTAssertGreaterThanOrEqual(weather.daily.count, 5)
        XCTAssertGreaterThanOrEqual(weather.hourly.count, 48)
        let first = weather.daily[0]
        XCTAssertEqual(first.date, LocalDate(year: 2025, month: 11, day: 29))
        XCTAssertEqual(first.high, 9)  // steps at 12, 15, 18, 21 h: temp_max 6…9
        XCTAssertEqual(first.low, 4)
        XCTAssertEqual(first.precipitationProbability, 60)
        XCTAssertEqual(weather.hourly[1].temperature ?? .nan, 5 + 1.0 / 3, accuracy: 1e-9, "hours are interpolated")
        XCTAssertEqual(OpenWeatherMapProvider.wmoCode(forCondition: 211), WeatherCode(95))
        XCTAssertEqual(OpenWeatherMapProvider.wmoCode(forCondition: 804), WeatherCode(3))
        XCTAssertEqual(OpenWeatherMapProvider.wmoCode(forCondition: 601), WeatherCode(73))
    }

    func testOpenWeatherMapErrors() async throws {
        let cases: [(LoopbackHTTPServer.Response, WeatherError.Kind, String)] = [
            (.json(#"{"cod":401, "message": "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."}"#, status: 401),
             .badAPIKey(reason: "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."),
             "OpenWeatherMap rejected the API key (HTTP 401): Invalid API key. Please see https://openweathermap.org/faq#error401 for more info.; check OPENWEATHERMAP_API_KEY"),
            (.json(#"{"cod":"404","message":"city not found"}"#, status: 404), .notFound, "OpenWeatherMap has no data for this place (HTTP 404)"),
            (.json(#"{"cod":"500","message":"oops"}"#, status: 500), .server(status: 500, reason: "oops"), "OpenWeatherMap answered HTTP 500: oops"),
        ]
        for (response, kind, message) in cases {
            let server = try LoopbackHTTPServer { _ in response }
            defer { server.stop() }
            var configuration = fastConfiguration()
            configuration.backoffBase = 0.01
            let network = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "k", baseURL: server.baseURL), configuration: configuration)
            let result = await network.weatherResults(for: [testCity(3)])[0]
            guard case let .failure(error) = result else { XCTFail("expected \(kind)"); continue }
            XCTAssertEqual(error.kind, kind)
            XCTAssertEqual(error.message, message)
        }
        let network = NetworkManager(provider: OpenWeatherMapProvider(apiKey: nil), configuration: fastConfiguration())
        guard case let .failure(error) = await network.weatherResults(for: [testCity(3)])[0] else { return XCTFail() }
        XCTAssertEqual(error.kind, .missingAPIKey)
    }

    func testDemoProviderIsDeterministicAndLabelled() async throws {
        let clock = TestClock()
        let provider = DemoProvider(clock: clock.function)
        let city = testCity(2950159, "Berlin")
        let first = try provider.weather(for: city, at: clock.date)
        let again = try provider.weather(for: city, at: clock.date)
        XCTAssertEqual(first, again)
        XCTAssertTrue(first.isDemo)
        XCTAssertEqual(first.provider, .demo)
        XCTAssertGreaterThanOrEqual(first.daily.count, 5)
        XCTAssertGreaterThanOrEqual(first.hours(from: clock.date, count: 48).count, 48)
        let tropical = try provider.weather(for: testCity(1, latitude: 1.3, longitude: 103.8), at: clock.date)
        let arctic = try provider.weather(for: testCity(2, latitude: 69.6, longitude: 18.9), at: clock.date)
        XCTAssertGreaterThan(tropical.current.temperature, arctic.current.temperature + 10)
        let network = NetworkManager(provider: provider)
        let fetched = await network.weatherResults(for: [city])[0]
        XCTAssertEqual(try fetched.get(), first)
    }

    func testEndpointsFromEnvironment() throws {
        XCTAssertEqual(try Endpoints.fromEnvironment([:]), .defaults)
        let local = try Endpoints.fromEnvironment(["SKYCAST_OPEN_METEO_URL": "http://127.0.0.1:8080/prefix",
                                                   "SKYCAST_GEOCODING_URL": "http://localhost:9"])
        XCTAssertEqual(local.openMeteo.absoluteString, "http://127.0.0.1:8080/prefix")
        XCTAssertThrowsError(try Endpoints.fromEnvironment(["SKYCAST_OPENWEATHERMAP_URL": "http://example.com"])) { error in
            XCTAssertEqual((error as? WeatherError)?.message,
                           "SKYCAST_OPENWEATHERMAP_URL: plain http:// is accepted only for loopback addresses; use https://")
        }
        XCTAssertThrowsError(try Endpoints.fromEnvironment(["SKYCAST_OPEN_METEO_URL": "not a url"]))
        let url = URL.endpoint(URL(string: "http://127.0.0.1:1/base/")!, path: "/v1/forecast", query: [("latitude", "1,2")])
        XCTAssertEqual(url?.absoluteString, "http://127.0.0.1:1/base/v1/forecast?latitude=1,2")
    }
}

final class LocalDateTests: XCTestCase {
    func testAgreesWithFoundationsCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var rng = SeededGenerator(state: 20_261_129)
        for _ in 0..<2_000 {
            let time = Date(timeIntervalSince1970: Double(Int64.random(in: -4_000_000_000...8_000_000_000, using: &rng)))
            let offset = Int.random(in: -43_200...50_400, using: &rng)
            let expected = calendar.dateComponents([.year, .month, .day, .weekday], from: time.addingTimeInterval(Double(offset)))
            let date = LocalDate(time: time, utcOffsetSeconds: offset)
            XCTAssertEqual([date.year, date.month, date.day], [expected.year!, expected.month!, expected.day!], "\(time) \(offset)")
            XCTAssertEqual(date.weekdayAbbreviation, ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][expected.weekday! - 1])
        }
        XCTAssertEqual(LocalDate(year: 2026, month: 11, day: 29).description, "2026-11-29")
        XCTAssertEqual(LocalDate(year: 2026, month: 11, day: 29).weekdayAbbreviation, "Sun")
    }
}
