import Catalog
import Foundation
import LoopbackHTTP
import Models
import SkycastCore
import Weather

/// Refreshes 50 cities against a loopback server that answers in 100 ms, three ways.
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

        server.resetCounters()
        let owm = NetworkManager(provider: OpenWeatherMapProvider(apiKey: "bench", baseURL: server.baseURL))
        start = monotonicSeconds()
        let owmResults = await owm.weatherResults(for: cities)
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
    }

    static func location() -> String {
        let base = 1_764_374_400
        let hours = (0..<168).map { String(base + $0 * 3600) }.joined(separator: ",")
        let temps = (0..<168).map { String(Double($0 % 24) / 2) }.joined(separator: ",")
        let codes = Array(repeating: "3", count: 168).joined(separator: ",")
        let days = (0..<7).map { String(base + $0 * 86_400) }.joined(separator: ",")
        return """
        {"utc_offset_seconds":0,"current":{"time":\(base),"temperature_2m":5,"apparent_temperature":3,"relative_humidity_2m":70,
        "weather_code":3,"wind_speed_10m":10,"is_day":1},"hourly":{"time":[\(hours)],"temperature_2m":[\(temps)],"weather_code":[\(codes)],
        "precipitation_probability":[\(codes)]},"daily":{"time":[\(days)],"weather_code":[3,3,3,3,3,3,3],
        "temperature_2m_max":[6,6,6,6,6,6,6],"temperature_2m_min":[1,1,1,1,1,1,1],"precipitation_probability_max":[5,5,5,5,5,5,5]}}
        """
    }

    static let owmCurrent = #"{"weather":[{"id":803}],"main":{"temp":5,"feels_like":3,"humidity":70},"wind":{"speed":3},"dt":1764374400,"timezone":0,"cod":200}"#

    static let owmForecast: String = {
        let items = (0..<40).map { #"{"dt":\#(1_764_374_400 + $0 * 10_800),"main":{"temp":5,"temp_min":4,"temp_max":6},"weather":[{"id":800}],"pop":0.1}"# }
        return #"{"cod":"200","list":[\#(items.joined(separator: ","))],"city":{"timezone":0}}"#
    }()
}
