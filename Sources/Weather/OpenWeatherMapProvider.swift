import Foundation
import Models

/// OpenWeatherMap (API key). Per city, current conditions and the 5-day/3-hour forecast are fetched
/// together; the 3-hourly list is folded into local-date days and interpolated to hours.
public struct OpenWeatherMapProvider: WeatherProvider {
    public let id = ProviderID.openWeatherMap
    public let citiesPerJob = 1
    /// The free plan allows 60 calls a minute (openweathermap.org/price); a city costs two.
    public let limits = ServiceLimits(maxInFlight: 8, callWindow: (calls: 60, seconds: 60))
    public let baseURL: URL
    public let apiKey: String?
    public var serviceURL: URL? { baseURL }
    let clock: @Sendable () -> Date

    public init(apiKey: String?, baseURL: URL = Endpoints.defaults.openWeatherMap,
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
        self.baseURL = baseURL
        self.clock = clock
    }

    public func fetch(_ cities: [City], network: NetworkManager) async -> [Result<CityWeather, WeatherError>] {
        var results: [Result<CityWeather, WeatherError>] = []
        for city in cities { results.append(await fetch(city, network: network)) }
        return results
    }

    func fetch(_ city: City, network: NetworkManager) async -> Result<CityWeather, WeatherError> {
        guard let apiKey else { return .failure(WeatherError(.missingAPIKey, city: city, provider: id)) }
        let query = [("lat", String(format: "%.4f", city.latitude)), ("lon", String(format: "%.4f", city.longitude)),
                     ("units", "metric"), ("appid", apiKey)]
        guard let currentURL = URL.endpoint(baseURL, path: "/data/2.5/weather", query: query),
              let forecastURL = URL.endpoint(baseURL, path: "/data/2.5/forecast", query: query) else {
            return .failure(WeatherError(.invalidURL("cannot build an OpenWeatherMap URL from \(baseURL)"), city: city, provider: id))
        }
        // Both requests go out together: a row needs both.
        async let currentReply = Self.result { () async throws(WeatherError) in try await network.get(currentURL) }
        async let forecastReply = Self.result { () async throws(WeatherError) in try await network.get(forecastURL) }
        let (current, forecast) = await (currentReply, forecastReply)
        do {
            return .success(try decode(current: current.get(), forecast: forecast.get(), city: city))
        } catch {
            return .failure(WeatherError(error.kind, city: city, provider: id))
        }
    }

    private static func result(_ body: () async throws(WeatherError) -> HTTPResponse) async -> Result<HTTPResponse, WeatherError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    func decode(current: HTTPResponse, forecast: HTTPResponse, city: City) throws(WeatherError) -> CityWeather {
        try check(current)
        try check(forecast)
        let now = try decodeJSON(CurrentReply.self, from: current.body)
        let list = try decodeJSON(ForecastReply.self, from: forecast.body)
        guard let temperature = now.main?.temp, let conditionID = now.weather?.first?.id else {
            throw WeatherError(.invalidResponse("no current conditions"))
        }
        let offset = list.city?.timezone ?? now.timezone ?? 0
        let observed = Date(timeIntervalSince1970: now.dt ?? clock().timeIntervalSince1970)
        var isDay: Bool?
        if let sunrise = now.sys?.sunrise, let sunset = now.sys?.sunset {
            isDay = observed.timeIntervalSince1970 >= sunrise && observed.timeIntervalSince1970 < sunset
        }
        let currentWeather = CurrentWeather(
            temperature: temperature, apparentTemperature: now.main?.feels_like,
            weatherCode: Self.wmoCode(forCondition: conditionID), humidity: now.main?.humidity.map { Int(saturating: $0) },
            windSpeed: now.wind?.speed.map { $0 * 3.6 }, windDirection: now.wind?.deg, isDay: isDay, observedAt: observed)

        let steps: [(time: Double, temperature: Double, high: Double, low: Double, code: WeatherCode, rain: Int)] =
            (list.list ?? []).compactMap { item in
                guard let time = item.dt, let temp = item.main?.temp else { return nil }
                return (time, temp, item.main?.temp_max ?? temp, item.main?.temp_min ?? temp,
                        Self.wmoCode(forCondition: item.weather?.first?.id ?? 800), Int(saturating: (item.pop ?? 0) * 100))
            }.sorted { $0.time < $1.time }
        // Days: highs, lows and the most frequent (then most severe) condition of each local date.
        var days: [DailyForecast] = []
        var byDate: [(date: LocalDate, items: [Int])] = []
        let zone = LocalZone(identifier: city.timeZone, fallbackOffsetSeconds: offset)
        for (index, step) in steps.enumerated() {
            let date = zone.date(of: Date(timeIntervalSince1970: step.time))
            if byDate.last?.date == date { byDate[byDate.count - 1].items.append(index) } else { byDate.append((date, [index])) }
        }
        for (date, items) in byDate {
            var counts: [Int: Int] = [:]
            for index in items { counts[steps[index].code.rawValue, default: 0] += 1 }
            let dominant = counts.max { lhs, rhs in
                lhs.value != rhs.value ? lhs.value < rhs.value : WeatherCode(lhs.key).severity < WeatherCode(rhs.key).severity
            }!.key
            days.append(DailyForecast(date: date, weatherCode: WeatherCode(dominant),
                                      high: items.map { steps[$0].high }.max()!, low: items.map { steps[$0].low }.min()!,
                                      precipitationProbability: items.map { steps[$0].rain }.max()!))
        }
        // Hours: linear interpolation between the 3-hourly steps.
        var hours: [HourlyForecast] = []
        for (index, step) in steps.enumerated() {
            guard index + 1 < steps.count else {
                hours.append(HourlyForecast(time: Date(timeIntervalSince1970: step.time), temperature: step.temperature,
                                            weatherCode: step.code, precipitationProbability: step.rain))
                break
            }
            let next = steps[index + 1]
            var time = step.time
            while time < next.time {
                let fraction = (time - step.time) / (next.time - step.time)
                hours.append(HourlyForecast(time: Date(timeIntervalSince1970: time),
                                            temperature: step.temperature + (next.temperature - step.temperature) * fraction,
                                            weatherCode: fraction < 0.5 ? step.code : next.code,
                                            precipitationProbability: fraction < 0.5 ? step.rain : next.rain))
                time += 3600
            }
        }
        return try CityWeather(city: city, current: currentWeather, daily: days, hourly: hours, utcOffsetSeconds: offset,
                               fetchedAt: clock(), provider: id, isDemo: false)
    }

    /// Maps OpenWeatherMap's status and `cod` (a number or a string) to clear errors.
    private func check(_ response: HTTPResponse) throws(WeatherError) {
        let reply = try? JSONDecoder().decode(StatusReply.self, from: response.body)
        let code = reply?.cod?.value ?? response.status
        let status = response.status != 200 ? response.status : code
        guard status != 200 else { return }
        throw WeatherError(.httpStatus(status, reason: reply?.message))
    }

    /// OpenWeatherMap condition ids (https://openweathermap.org/weather-conditions) as WMO codes.
    static func wmoCode(forCondition id: Int) -> WeatherCode {
        switch id {
        case 200...202, 230...232: return WeatherCode(95)
        case 210...221: return WeatherCode(95)
        case 300, 310: return WeatherCode(51)
        case 301, 311, 313, 321: return WeatherCode(53)
        case 302, 312, 314: return WeatherCode(55)
        case 500: return WeatherCode(61)
        case 501: return WeatherCode(63)
        case 502...504: return WeatherCode(65)
        case 511: return WeatherCode(66)
        case 520: return WeatherCode(80)
        case 521: return WeatherCode(81)
        case 522, 531: return WeatherCode(82)
        case 600: return WeatherCode(71)
        case 601: return WeatherCode(73)
        case 602: return WeatherCode(75)
        case 611...616: return WeatherCode(67)
        case 620: return WeatherCode(85)
        case 621, 622: return WeatherCode(86)
        case 701...781: return WeatherCode(45)
        case 800: return WeatherCode(0)
        case 801: return WeatherCode(1)
        case 802: return WeatherCode(2)
        case 803, 804: return WeatherCode(3)
        default: return WeatherCode(3)
        }
    }

    struct FlexibleInt: Decodable {
        var value: Int?
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int.self) { value = number } else { value = Int(try container.decode(String.self)) }
        }
    }

    struct StatusReply: Decodable {
        var cod: FlexibleInt?
        var message: String?
    }

    struct Condition: Decodable { var id: Int? }

    struct CurrentReply: Decodable {
        struct Main: Decodable { var temp: Double?; var feels_like: Double?; var humidity: Double? }
        struct Wind: Decodable { var speed: Double?; var deg: Double? }
        struct Sys: Decodable { var sunrise: Double?; var sunset: Double? }
        var weather: [Condition]?
        var main: Main?
        var wind: Wind?
        var sys: Sys?
        var dt: Double?
        var timezone: Int?
    }

    struct ForecastReply: Decodable {
        struct Item: Decodable {
            struct Main: Decodable { var temp: Double?; var temp_min: Double?; var temp_max: Double? }
            var dt: Double?
            var main: Main?
            var weather: [Condition]?
            var pop: Double?
        }
        struct CityInfo: Decodable { var timezone: Int? }
        var list: [Item]?
        var city: CityInfo?
    }
}
