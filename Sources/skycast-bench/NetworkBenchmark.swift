import Catalog
import Foundation
import LoopbackHTTP
import Models
import ServiceStandIns
import SkycastCore
import Weather

/// Refreshes cities against loopback servers: a plain one answering in 100 ms (sequential, grouped,
/// batched), then stand-ins that keep the real services' limits, answering in 200 ms; and a day of
/// the table's refreshes with an injected clock, counting the calls the service would count.
enum NetworkBenchmark {
    static func run() {
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            await measure()
            semaphore.signal()
        }
        semaphore.wait()
    }

    static func measure() async {
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer { request in
                let latency = 0.1
                if request.path == "/v1/forecast" {
                    let count = request.query["latitude"]?.split(separator: ",").count ?? 1
                    let one = location()
                    return .json(count == 1 ? one : "[" + Array(repeating: one, count: count).joined(separator: ",") + "]", delay: latency)
                }
                return .json(request.path.hasSuffix("/weather") ? owmCurrent : owmForecast, delay: latency)
            }
        } catch {
            FileHandle.standardError.write(Data("skycast-bench: cannot start the loopback server: \(error)\n".utf8))
            return
        }
        defer { server.stop() }
        let cities = (0..<50).map { index in
            City(id: index, name: "City \(index)", countryCode: "XX", countryName: "", admin1: "",
                 latitude: Double(index) - 25, longitude: Double(index) * 3, timeZone: "UTC", population: 0)
        }

        // The naive way: current, then forecast, city after city.
        let sequentialNetwork = NetworkManager(provider: DemoProvider())
        var start = monotonicSeconds()
        for city in cities {
            for path in ["/data/2.5/weather", "/data/2.5/forecast"] {
                var components = URLComponents(url: server.baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
                components.queryItems = [URLQueryItem(name: "lat", value: "\(city.latitude)"), URLQueryItem(name: "lon", value: "\(city.longitude)")]
                _ = try? await sequentialNetwork.get(components.url!)
            }
        }
        report("network.sequential", (monotonicSeconds() - start) * 1000, "ms")
        report("network.sequential.requests", Double(server.requestCount), "requests")

        // 25 cities: 50 requests, within OpenWeatherMap's 60 a minute (the stand-in below goes past it).
        server.resetCounters()
        let owm = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "bench", baseURL: server.baseURL))
        start = monotonicSeconds()
        let owmResults = await owm.weatherResults(for: Array(cities.prefix(25)))
        report("network.grouped.owm", (monotonicSeconds() - start) * 1000, "ms")
        report("network.grouped.owm.requests", Double(server.requestCount), "requests")
        report("network.grouped.owm.peak_in_flight", Double(server.peakInFlight), "requests")
        report("network.grouped.owm.failures", Double(owmResults.filter { (try? $0.get()) == nil }.count), "cities")

        server.resetCounters()
        let openMeteo = NetworkManager(provider: OpenMeteoProvider(baseURL: server.baseURL))
        start = monotonicSeconds()
        let batched = await openMeteo.weatherResults(for: cities)
        report("network.batched.openmeteo", (monotonicSeconds() - start) * 1000, "ms")
        report("network.batched.openmeteo.requests", Double(server.requestCount), "requests")
        report("network.batched.openmeteo.failures", Double(batched.filter { (try? $0.get()) == nil }.count), "cities")

        await againstStandIns()
        budgetDay(cities: 50)
        budgetDay(cities: 300)
    }

    static func places(_ count: Int) -> [City] {
        (0..<count).map { index in
            City(id: 100_000 + index, name: "Place \(index)", countryCode: "XX", countryName: "", admin1: "",
                 latitude: -80 + Double(index) * 0.5, longitude: Double(index % 360) - 180, timeZone: "UTC", population: 0)
        }
    }

    /// The real limits, the real latency: what a user with many cities meets.
    static func againstStandIns() async {
        do {
            let openMeteo = try OpenMeteoStandIn(latency: 0.2)
            defer { openMeteo.stop() }
            let network = NetworkManager(provider: OpenMeteoProvider(baseURL: openMeteo.baseURL))
            let start = monotonicSeconds()
            let results = await network.weatherResults(for: places(300))
            report("network.openmeteo.300cities_ms", (monotonicSeconds() - start) * 1000, "ms")
            report("network.openmeteo.300cities_429s", Double(openMeteo.refusals.count), "refusals")
            report("network.openmeteo.300cities_failures", Double(results.filter { (try? $0.get()) == nil }.count), "cities")
            report("network.openmeteo.weight_per_city", openMeteo.weightedCalls / 300, "calls")

            let owmService = try OpenWeatherMapStandIn(latency: 0.2)
            defer { owmService.stop() }
            let owm = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "bench", baseURL: owmService.baseURL))
            let owmStart = monotonicSeconds()
            let owmResults = await owm.weatherResults(for: places(40))
            report("network.owm.40cities_ms", (monotonicSeconds() - owmStart) * 1000, "ms")
            report("network.owm.40cities_429s", Double(owmService.refusals), "refusals")
            report("network.owm.40cities_failures", Double(owmResults.filter { (try? $0.get()) == nil }.count), "cities")
        } catch {
            FileHandle.standardError.write(Data("skycast-bench: cannot start a stand-in: \(error)\n".utf8))
        }
    }

    /// A day of the table with `cities` bookmarked, its clock moved on tick by tick (every 30 s, as
    /// the loop ticks): the weighted calls Open-Meteo would count for every refresh it starts.
    static func budgetDay(cities count: Int) {
        let weight = OpenMeteoProvider().weightPerCity
        var state = AppState(provider: .openMeteo, units: .metric, bookmarks: places(count), size: TerminalSize(rows: 30, columns: 100))
        var now = Date(timeIntervalSince1970: 1_764_374_400)
        let end = now.addingTimeInterval(86_400)
        var calls = 0.0
        func tally(_ effects: [AppEffect]) {
            for case let .fetchWeather(cities, _) in effects { calls += Double(cities.count) * weight }
            state.pending = []
        }
        tally(App.update(&state, with: .started, now: now))
        while now < end {
            now += 30
            tally(App.update(&state, with: .tick, now: now))
        }
        report("network.budget.day_calls.\(count)cities", calls, "calls")
        report("network.budget.interval.\(count)cities", state.effectiveRefreshInterval / 60, "min")
    }

    static func location() -> String {
        let base = 1_764_374_400
        let hours = (0..<168).map { String(base + $0 * 3600) }.joined(separator: ",")
        let temps = (0..<168).map { String(Double($0 % 24) / 2) }.joined(separator: ",")
        let codes = Array(repeating: "3", count: 168).joined(separator: ",")
        return """
        {"utc_offset_seconds":0,"current":{"time":\(base),"temperature_2m":5,"apparent_temperature":3,"relative_humidity_2m":70,
        "weather_code":3,"wind_speed_10m":10,"is_day":1},"hourly":{"time":[\(hours)],"temperature_2m":[\(temps)],"weather_code":[\(codes)],
        "precipitation_probability":[\(codes)]}}
        """
    }

    static let owmCurrent = #"{"weather":[{"id":803}],"main":{"temp":5,"feels_like":3,"humidity":70},"wind":{"speed":3},"dt":1764374400,"timezone":0,"cod":200}"#

    static let owmForecast: String = {
        let items = (0..<40).map { #"{"dt":\#(1_764_374_400 + $0 * 10_800),"main":{"temp":5,"temp_min":4,"temp_max":6},"weather":[{"id":800}],"pop":0.1}"# }
        return #"{"cod":"200","list":[\#(items.joined(separator: ","))],"city":{"timezone":0}}"#
    }()
}
