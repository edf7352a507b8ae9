import Foundation

/// Temperature and wind units for display. The models are always metric (°C, km/h); conversion
/// happens when a value is shown, so switching units never needs a request.
public enum Units: String, Sendable, Codable, CaseIterable {
    case metric
    case imperial

    public var speedSymbol: String { self == .metric ? "km/h" : "mph" }

    public func temperature(_ celsius: Double) -> Double { self == .metric ? celsius : celsius * 9 / 5 + 32 }
    public func speed(_ kilometresPerHour: Double) -> Double { self == .metric ? kilometresPerHour : kilometresPerHour / 1.609344 }

    public var toggled: Units { self == .metric ? .imperial : .metric }
}

/// A calendar date in the city's own time zone.
public struct LocalDate: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The local date of `time` at `utcOffsetSeconds` east of UTC. Integer arithmetic (it runs for
    /// every row of every frame): days since 1970 to a proleptic Gregorian date.
    public init(time: Date, utcOffsetSeconds: Int) {
        // Clamped so that an absurd time from the network cannot trap the conversion.
        let seconds = Int(max(-1e12, min(1e12, time.timeIntervalSince1970)).rounded(.down)) + max(-86_400, min(86_400, utcOffsetSeconds))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        self.init(daysSinceEpoch: days)
    }

    init(daysSinceEpoch days: Int) {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }

    /// Days since 1970-01-01 (Hinnant's days_from_civil).
    var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// ISO 8601, `2026-11-29`.
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Mon, Tue, …
    public var weekdayAbbreviation: String {
        // 1970-01-01 was a Thursday.
        let weekday = ((daysSinceEpoch % 7) + 7 + 4) % 7
        return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday]
    }
}

// A service may send `null` for any value. What a row cannot do without is required (a current
// temperature and weather code, each day's high and low); everything else is optional and shown as
// "–" when missing, never as an invented 0 or "clear sky".

public struct CurrentWeather: Sendable, Hashable, Codable {
    public var temperature: Double
    public var apparentTemperature: Double?
    public var weatherCode: WeatherCode
    /// 0–100.
    public var humidity: Int?
    /// km/h.
    public var windSpeed: Double?
    /// Degrees the wind comes from (0 north, 90 east), as meteorology reports it.
    public var windDirection: Double?
    /// Unknown: icons show the day variant.
    public var isDay: Bool?
    public var observedAt: Date

    public init(temperature: Double, apparentTemperature: Double?, weatherCode: WeatherCode, humidity: Int?,
                windSpeed: Double?, windDirection: Double? = nil, isDay: Bool?, observedAt: Date) {
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.weatherCode = weatherCode
        self.humidity = humidity
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.isDay = isDay
        self.observedAt = observedAt
    }
}

public struct DailyForecast: Sendable, Hashable, Codable {
    public var date: LocalDate
    public var weatherCode: WeatherCode?
    public var high: Double
    public var low: Double
    /// 0–100.
    public var precipitationProbability: Int?

    public init(date: LocalDate, weatherCode: WeatherCode?, high: Double, low: Double, precipitationProbability: Int?) {
        self.date = date
        self.weatherCode = weatherCode
        self.high = high
        self.low = low
        self.precipitationProbability = precipitationProbability
    }

    /// The days of `hours` by the city's local date: the high and low of the hours' temperatures,
    /// the most severe of their conditions (as Open-Meteo defines its daily code), the highest rain
    /// chance. Days with fewer than `minimumHours` hours, or no temperature, are left out.
    public static func days(from hours: [HourlyForecast], in zone: LocalZone, minimumHours: Int) -> [DailyForecast] {
        var groups: [(date: LocalDate, hours: [HourlyForecast])] = []
        for hour in hours {
            let date = zone.date(of: hour.time)
            if groups.last?.date == date { groups[groups.count - 1].hours.append(hour) } else { groups.append((date, [hour])) }
        }
        return groups.compactMap { date, hours in
            let temperatures = hours.compactMap(\.temperature)
            guard hours.count >= minimumHours, let high = temperatures.max(), let low = temperatures.min() else { return nil }
            return DailyForecast(date: date, weatherCode: hours.compactMap(\.weatherCode).max { $0.severity < $1.severity },
                                 high: high, low: low, precipitationProbability: hours.compactMap(\.precipitationProbability).max())
        }
    }
}

public struct HourlyForecast: Sendable, Hashable, Codable {
    public var time: Date
    public var temperature: Double?
    public var weatherCode: WeatherCode?
    /// 0–100.
    public var precipitationProbability: Int?

    public init(time: Date, temperature: Double?, weatherCode: WeatherCode?, precipitationProbability: Int?) {
        self.time = time
        self.temperature = temperature
        self.weatherCode = weatherCode
        self.precipitationProbability = precipitationProbability
    }
}

/// A city's clock: its IANA zone when known (so that hours after a daylight-saving change inside the
/// forecast fall on the right date), else the fixed offset a service reported.
public struct LocalZone: Sendable {
    public let timeZone: TimeZone?
    public let fixedOffsetSeconds: Int

    public init(identifier: String, fallbackOffsetSeconds: Int) {
        timeZone = identifier.isEmpty ? nil : TimeZone(identifier: identifier)
        fixedOffsetSeconds = fallbackOffsetSeconds
    }

    public func offsetSeconds(at time: Date) -> Int {
        timeZone?.secondsFromGMT(for: time) ?? fixedOffsetSeconds
    }

    public func date(of time: Date) -> LocalDate {
        LocalDate(time: time, utcOffsetSeconds: offsetSeconds(at: time))
    }
}

/// Everything a row needs about one city, complete: current conditions and forecasts arrive together
/// or the city gets a `WeatherError` instead.
public struct CityWeather: Sendable, Hashable, Codable {
    public static let minimumDays = 5

    public var city: City
    public var current: CurrentWeather
    public var daily: [DailyForecast]
    public var hourly: [HourlyForecast]
    /// Seconds east of UTC at the city when fetched, as the provider reported it; the city's IANA
    /// zone (`zone`) is preferred where the catalog knows it.
    public var utcOffsetSeconds: Int
    public var fetchedAt: Date
    public var provider: ProviderID
    /// Simulated data from the demo provider: always labelled as such where shown.
    public var isDemo: Bool

    public init(city: City, current: CurrentWeather, daily: [DailyForecast], hourly: [HourlyForecast],
                utcOffsetSeconds: Int, fetchedAt: Date, provider: ProviderID, isDemo: Bool) throws(WeatherError) {
        // Complete means: a current temperature and weather code (required by the types) and at least
        // five days of highs and lows. Anything else may be missing.
        guard daily.count >= Self.minimumDays else {
            throw WeatherError(.invalidResponse("only \(daily.count) days of forecast"), city: city, provider: provider)
        }
        // Everything shown goes through Int(…): reject what would trap it or cannot be weather.
        let temperatures = [current.temperature] + [current.apparentTemperature].compactMap { $0 }
            + daily.flatMap { [$0.high, $0.low] } + hourly.compactMap(\.temperature)
        if let wrong = temperatures.first(where: { !(-100...100).contains($0) }) {
            throw WeatherError(.invalidResponse("implausible temperature \(wrong)"), city: city, provider: provider)
        }
        guard (0...500).contains(current.windSpeed ?? 0), (0...360).contains(current.windDirection ?? 0),
              (0...100).contains(current.humidity ?? 0), abs(utcOffsetSeconds) <= 86_400 else {
            throw WeatherError(.invalidResponse("implausible wind, humidity or time zone"), city: city, provider: provider)
        }
        let times = [current.observedAt] + hourly.map(\.time)
        let rainChances = daily.compactMap(\.precipitationProbability) + hourly.compactMap(\.precipitationProbability)
        guard times.allSatisfy({ (-1e10...1e11).contains($0.timeIntervalSince1970) }), rainChances.allSatisfy({ (0...100).contains($0) }) else {
            throw WeatherError(.invalidResponse("implausible time or rain chance"), city: city, provider: provider)
        }
        self.city = city
        self.current = current
        self.daily = daily
        self.hourly = hourly
        self.utcOffsetSeconds = utcOffsetSeconds
        self.fetchedAt = fetchedAt
        self.provider = provider
        self.isDemo = isDemo
    }

    private enum CodingKeys: String, CodingKey {
        case city, current, daily, hourly, utcOffsetSeconds, fetchedAt, provider, isDemo
    }

    /// Decoding (the cache) goes through the same checks as a reply from the network.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(city: container.decode(City.self, forKey: .city),
                      current: container.decode(CurrentWeather.self, forKey: .current),
                      daily: container.decode([DailyForecast].self, forKey: .daily),
                      hourly: container.decode([HourlyForecast].self, forKey: .hourly),
                      utcOffsetSeconds: container.decode(Int.self, forKey: .utcOffsetSeconds),
                      fetchedAt: container.decode(Date.self, forKey: .fetchedAt),
                      provider: container.decode(ProviderID.self, forKey: .provider),
                      isDemo: container.decode(Bool.self, forKey: .isDemo))
    }

    /// The hourly forecast from the current hour on.
    public func hours(from now: Date, count: Int) -> ArraySlice<HourlyForecast> {
        let start = hourly.firstIndex { $0.time.addingTimeInterval(3600) > now } ?? hourly.count
        return hourly[start..<min(hourly.count, start + count)]
    }

    /// The city's clock: its IANA zone, else the offset the provider reported.
    public var zone: LocalZone { LocalZone(identifier: city.timeZone, fallbackOffsetSeconds: utcOffsetSeconds) }

    /// The daily forecast from the city's today on.
    public func days(from now: Date) -> ArraySlice<DailyForecast> {
        let today = zone.date(of: now)
        let start = daily.firstIndex { $0.date >= today } ?? daily.count
        return daily[start...]
    }
}
