import Foundation
import Models

/// Open-Meteo (no key). Up to 50 cities share one request: latitudes and longitudes go
/// comma-separated and the reply is an array (a single object for one city).
///
/// The free API weighs each location at `max(1, v/10 × max(1, d/14))` calls for v variables over d
/// days (Open-Meteo's server source, `ForecastapiQuery.swift`), so skycast asks for 10 variables:
/// one call a city. Daily highs, lows, conditions and rain chances are folded from the hourly values
/// by the city's own dates, as Open-Meteo aggregates its daily values from hourly data itself.
public struct OpenMeteoProvider: WeatherProvider {
    public let id = ProviderID.openMeteo
    public let citiesPerJob = 50
    /// One request runs at a time per client address and four more may wait: skycast keeps at most
    /// four in flight, forecast and geocoding together.
    public let limits = ServiceLimits(maxInFlight: 4, callWindow: nil)
    public let baseURL: URL
    public let forecastDays = 7
    public var serviceURL: URL? { baseURL }
    let clock: @Sendable () -> Date

    static let currentVariables = ["temperature_2m", "apparent_temperature", "relative_humidity_2m", "weather_code", "wind_speed_10m",
                                   "wind_direction_10m", "is_day"]
    static let hourlyVariables = ["temperature_2m", "weather_code", "precipitation_probability"]

    public init(baseURL: URL = Endpoints.defaults.openMeteo, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.baseURL = baseURL
        self.clock = clock
    }

    /// What the service counts for one location of `variables` variables over `days` days.
    public static func weight(variables: Int, days: Int) -> Double {
        max(1, Double(variables) / 10 * max(1, Double(days) / 14))
    }

    /// Weighted calls one city costs with the variables skycast asks for.
    public var weightPerCity: Double {
        Self.weight(variables: Self.currentVariables.count + Self.hourlyVariables.count, days: forecastDays)
    }

    /// Always metric: the model is metric and display converts.
    func requestURL(for cities: [City]) -> URL? {
        func coordinate(_ value: Double) -> String { String(format: "%.4f", value) }
        return URL.endpoint(baseURL, path: "/v1/forecast", query: [
            ("latitude", cities.map { coordinate($0.latitude) }.joined(separator: ",")),
            ("longitude", cities.map { coordinate($0.longitude) }.joined(separator: ",")),
            ("current", Self.currentVariables.joined(separator: ",")),
            ("hourly", Self.hourlyVariables.joined(separator: ",")),
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
            if response.status == 400, cities.count > 1 {
                // One location the service cannot serve refuses the whole batch: halve it until the
                // refused cities stand alone (about 2·log2(n) more requests for one of them).
                let middle = cities.count / 2
                async let first = fetch(Array(cities[..<middle]), network: network)
                let second = await fetch(Array(cities[middle...]), network: network)
                return await first + second
            }
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
        var locations: [Location]
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
        // Every element but the first carries its index in the request as `location_id`.
        locations = locations.enumerated().sorted { ($0.element.location_id ?? $0.offset) < ($1.element.location_id ?? $1.offset) }.map(\.element)
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

    /// One location of a reply. Any value may be `null`, whole arrays included (for example
    /// `precipitation_probability` for models without it).
    struct Location: Decodable {
        struct Current: Decodable {
            var time: Double?
            var temperature_2m: Double?
            var apparent_temperature: Double?
            var relative_humidity_2m: Double?
            var weather_code: Double?
            var wind_speed_10m: Double?
            var wind_direction_10m: Double?
            var is_day: Double?
        }

        struct Hourly: Decodable {
            var time: [Double?]?
            var temperature_2m: [Double?]?
            var weather_code: [Double?]?
            var precipitation_probability: [Double?]?
        }

        var error: Bool?
        var location_id: Int?
        /// The offset now, which Open-Meteo applies to the whole forecast: the city's IANA zone is
        /// preferred, so that hours after a daylight-saving change fall on the right date.
        var utc_offset_seconds: Int?
        var current: Current?
        var hourly: Hourly?

        func weather(for city: City, fetchedAt: Date) throws(WeatherError) -> CityWeather {
            guard let current, let temperature = current.temperature_2m, let code = current.weather_code else {
                throw WeatherError(.invalidResponse("no current conditions"))
            }
            let offset = utc_offset_seconds ?? 0
            let now = CurrentWeather(
                temperature: temperature,
                apparentTemperature: current.apparent_temperature,
                weatherCode: WeatherCode(Int(saturating: code)),
                humidity: current.relative_humidity_2m.map { Int(saturating: $0) },
                windSpeed: current.wind_speed_10m,
                windDirection: current.wind_direction_10m,
                isDay: current.is_day.map { $0 != 0 },
                observedAt: Date(timeIntervalSince1970: current.time ?? fetchedAt.timeIntervalSince1970))
            var hours: [HourlyForecast] = []
            if let hourly, let times = hourly.time {
                for (index, time) in times.enumerated() {
                    guard let time else { continue }
                    hours.append(HourlyForecast(time: Date(timeIntervalSince1970: time),
                                                temperature: hourly.temperature_2m?[safe: index] ?? nil,
                                                weatherCode: (hourly.weather_code?[safe: index] ?? nil).map { WeatherCode(Int(saturating: $0)) },
                                                precipitationProbability: (hourly.precipitation_probability?[safe: index] ?? nil).map { Int(saturating: $0) }))
                }
            }
            let zone = LocalZone(identifier: city.timeZone, fallbackOffsetSeconds: offset)
            let days = DailyForecast.days(from: hours, in: zone, minimumHours: 12)
            return try CityWeather(city: city, current: now, daily: days, hourly: hours, utcOffsetSeconds: offset,
                                   fetchedAt: fetchedAt, provider: .openMeteo, isDemo: false)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
