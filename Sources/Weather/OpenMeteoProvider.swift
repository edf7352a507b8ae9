import Foundation
import Models

/// Open-Meteo (no key). Up to 50 cities share one request: latitudes and longitudes go
/// comma-separated and the reply is an array (a single object for one city).
public struct OpenMeteoProvider: WeatherProvider {
    public let id = ProviderID.openMeteo
    public let citiesPerJob = 50
    public let baseURL: URL
    public let forecastDays = 7
    let clock: @Sendable () -> Date

    public init(baseURL: URL = Endpoints.defaults.openMeteo, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.baseURL = baseURL
        self.clock = clock
    }

    /// Always metric: the model is metric and display converts.
    func requestURL(for cities: [City]) -> URL? {
        func coordinate(_ value: Double) -> String { String(format: "%.4f", value) }
        return URL.endpoint(baseURL, path: "/v1/forecast", query: [
            ("latitude", cities.map { coordinate($0.latitude) }.joined(separator: ",")),
            ("longitude", cities.map { coordinate($0.longitude) }.joined(separator: ",")),
            ("current", "temperature_2m,apparent_temperature,relative_humidity_2m,weather_code,wind_speed_10m,is_day"),
            ("hourly", "temperature_2m,weather_code,precipitation_probability"),
            ("daily", "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max"),
            ("timezone", "auto"),
            ("forecast_days", String(forecastDays)),
            ("temperature_unit", "celsius"),
            ("wind_speed_unit", "kmh"),
            ("timeformat", "unixtime"),
        ])
    }

    public func fetch(_ cities: [City], network: NetworkManager) async -> [Result<CityWeather, WeatherError>] {
        guard !cities.isEmpty else { return [] }
        guard let url = requestURL(for: cities) else {
            return failing(cities, with: WeatherError(.invalidURL("cannot build an Open-Meteo URL from \(baseURL)")))
        }
        do {
            let response = try await network.get(url)
            return try decode(response, cities: cities)
        } catch {
            return failing(cities, with: error)
        }
    }

    /// The results for `cities` from one reply, in order.
    func decode(_ response: HTTPResponse, cities: [City]) throws(WeatherError) -> [Result<CityWeather, WeatherError>] {
        guard response.status == 200 else {
            let reason = (try? JSONDecoder().decode(ErrorReply.self, from: response.body))?.reason
            throw WeatherError(.httpStatus(response.status, reason: reason), provider: id)
        }
        let locations: [Location]
        if cities.count == 1, let single = try? JSONDecoder().decode(Location.self, from: response.body), single.error != true {
            locations = [single]
        } else {
            if let error = try? JSONDecoder().decode(ErrorReply.self, from: response.body), error.error == true {
                throw WeatherError(.httpStatus(200, reason: error.reason), provider: id)
            }
            do {
                locations = try decodeJSON([Location].self, from: response.body)
            } catch {
                var error = error
                error.provider = id
                throw error
            }
        }
        guard locations.count == cities.count else {
            throw WeatherError(.invalidResponse("\(locations.count) locations for \(cities.count) cities"), provider: id)
        }
        let now = clock()
        return zip(cities, locations).map { city, location in
            do throws(WeatherError) {
                return .success(try location.weather(for: city, fetchedAt: now))
            } catch {
                return .failure(WeatherError(error.kind, city: city, provider: id))
            }
        }
    }

    struct ErrorReply: Decodable {
        var error: Bool?
        var reason: String?
    }

    struct Location: Decodable {
        struct Current: Decodable {
            var time: Double?
            var temperature_2m: Double?
            var apparent_temperature: Double?
            var relative_humidity_2m: Double?
            var weather_code: Double?
            var wind_speed_10m: Double?
            var is_day: Double?
        }

        struct Hourly: Decodable {
            var time: [Double?]?
            var temperature_2m: [Double?]?
            var weather_code: [Double?]?
            var precipitation_probability: [Double?]?
        }

        struct Daily: Decodable {
            var time: [Double?]?
            var weather_code: [Double?]?
            var temperature_2m_max: [Double?]?
            var temperature_2m_min: [Double?]?
            var precipitation_probability_max: [Double?]?
        }

        var error: Bool?
        var utc_offset_seconds: Int?
        var current: Current?
        var hourly: Hourly?
        var daily: Daily?

        func weather(for city: City, fetchedAt: Date) throws(WeatherError) -> CityWeather {
            guard let current, let temperature = current.temperature_2m, let code = current.weather_code else {
                throw WeatherError(.invalidResponse("no current conditions"))
            }
            let offset = utc_offset_seconds ?? 0
            let now = CurrentWeather(
                temperature: temperature,
                apparentTemperature: current.apparent_temperature ?? temperature,
                weatherCode: WeatherCode(Int(saturating: code)),
                humidity: Int(saturating: current.relative_humidity_2m ?? 0),
                windSpeed: current.wind_speed_10m ?? 0,
                isDay: (current.is_day ?? 1) != 0,
                observedAt: Date(timeIntervalSince1970: current.time ?? fetchedAt.timeIntervalSince1970))
            var hours: [HourlyForecast] = []
            if let hourly, let times = hourly.time {
                for (index, time) in times.enumerated() {
                    guard let time, let value = hourly.temperature_2m?[safe: index] ?? nil else { continue }
                    let code = hourly.weather_code?[safe: index] ?? nil
                    let rain = hourly.precipitation_probability?[safe: index] ?? nil
                    hours.append(HourlyForecast(time: Date(timeIntervalSince1970: time), temperature: value,
                                                weatherCode: WeatherCode(Int(saturating: code ?? 0)),
                                                precipitationProbability: Int(saturating: rain ?? 0)))
                }
            }
            var days: [DailyForecast] = []
            if let daily, let times = daily.time {
                for (index, time) in times.enumerated() {
                    guard let time, let high = daily.temperature_2m_max?[safe: index] ?? nil,
                          let low = daily.temperature_2m_min?[safe: index] ?? nil else { continue }
                    let code = daily.weather_code?[safe: index] ?? nil
                    let rain = daily.precipitation_probability_max?[safe: index] ?? nil
                    days.append(DailyForecast(date: LocalDate(time: Date(timeIntervalSince1970: time), utcOffsetSeconds: offset),
                                              weatherCode: WeatherCode(Int(saturating: code ?? 0)), high: high, low: low,
                                              precipitationProbability: Int(saturating: rain ?? 0)))
                }
            }
            return try CityWeather(city: city, current: now, daily: days, hourly: hours, utcOffsetSeconds: offset,
                                   fetchedAt: fetchedAt, provider: .openMeteo, isDemo: false)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
