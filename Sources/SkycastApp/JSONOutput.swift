import Catalog
import Foundation
import Models

/// What `--json` prints: one city object everywhere (`show`, `find`, `bookmarks list`), each
/// command's own fields beside it. docs/JSON.md describes it; tests decode it.
enum JSONOutput {
    /// A city as every command prints it.
    struct CityFields: Encodable {
        var city: City

        enum CodingKeys: String, CodingKey {
            case id, name, admin1, country, latitude, longitude, timezone, population
            case countryCode = "country_code"
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(city.id, forKey: .id)
            try container.encode(city.name, forKey: .name)
            try container.encode(city.admin1, forKey: .admin1)
            try container.encode(city.countryCode, forKey: .countryCode)
            try container.encode(city.countryName, forKey: .country)
            try container.encode(city.latitude, forKey: .latitude)
            try container.encode(city.longitude, forKey: .longitude)
            try container.encode(city.timeZone, forKey: .timezone)
            try container.encode(city.population, forKey: .population)
        }
    }

    /// A city object with a command's own fields in the same JSON object.
    struct CityObject<Extra: Encodable>: Encodable {
        var city: City
        var extra: Extra

        func encode(to encoder: Encoder) throws {
            try CityFields(city: city).encode(to: encoder)
            try extra.encode(to: encoder)
        }
    }

    struct NoExtra: Encodable {
        func encode(to encoder: Encoder) throws {}
    }

    struct Match: Encodable {
        var match: String
    }

    /// `show`'s weather, in the units asked for, rounded to a tenth. A value the service did not
    /// send is `null`, never left out and never invented.
    struct Weather: Encodable {
        struct Current: Encodable {
            var temperature: Double
            var apparentTemperature: Double?
            var weatherCode: Int
            var condition: String
            var humidity: Int?
            var windSpeed: Double?
            var isDay: Bool?

            enum CodingKeys: String, CodingKey {
                case temperature, condition, humidity
                case apparentTemperature = "apparent_temperature", weatherCode = "weather_code", windSpeed = "wind_speed", isDay = "is_day"
            }

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(temperature, forKey: .temperature)
                try container.encode(apparentTemperature, forKey: .apparentTemperature)
                try container.encode(weatherCode, forKey: .weatherCode)
                try container.encode(condition, forKey: .condition)
                try container.encode(humidity, forKey: .humidity)
                try container.encode(windSpeed, forKey: .windSpeed)
                try container.encode(isDay, forKey: .isDay)
            }
        }

        struct Day: Encodable {
            var date: String
            var weatherCode: Int?
            var high: Double
            var low: Double
            var precipitationProbability: Int?

            enum CodingKeys: String, CodingKey {
                case date, high, low
                case weatherCode = "weather_code", precipitationProbability = "precipitation_probability"
            }

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(date, forKey: .date)
                try container.encode(weatherCode, forKey: .weatherCode)
                try container.encode(high, forKey: .high)
                try container.encode(low, forKey: .low)
                try container.encode(precipitationProbability, forKey: .precipitationProbability)
            }
        }

        var provider: String
        var demo: Bool
        var fetchedAt: String
        var units: String
        var current: Current
        var daily: [Day]

        enum CodingKeys: String, CodingKey {
            case provider, demo, units, current, daily
            case fetchedAt = "fetched_at"
        }

        /// `daily` starts at the city's own today.
        init(_ weather: CityWeather, units: Units, now: Date) {
            func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
            let current = weather.current
            provider = weather.provider.rawValue
            demo = weather.isDemo
            fetchedAt = ISO8601DateFormatter().string(from: weather.fetchedAt)
            self.units = units.rawValue
            self.current = Current(temperature: round1(units.temperature(current.temperature)),
                                   apparentTemperature: current.apparentTemperature.map { round1(units.temperature($0)) },
                                   weatherCode: current.weatherCode.rawValue, condition: current.weatherCode.description,
                                   humidity: current.humidity, windSpeed: current.windSpeed.map { round1(units.speed($0)) },
                                   isDay: current.isDay)
            daily = weather.days(from: now).map { day in
                Day(date: day.date.description, weatherCode: day.weatherCode?.rawValue, high: round1(units.temperature(day.high)),
                    low: round1(units.temperature(day.low)), precipitationProbability: day.precipitationProbability)
            }
        }
    }

    static func show(_ weather: [CityWeather], units: Units, now: Date = Date()) -> String {
        encode(weather.map { CityObject(city: $0.city, extra: Weather($0, units: units, now: now)) })
    }

    static func find(_ matches: [CityMatch]) -> String {
        encode(matches.map { CityObject(city: $0.city, extra: Match(match: $0.kind.description)) })
    }

    static func cities(_ cities: [City]) -> String {
        encode(cities.map { CityObject(city: $0, extra: NoExtra()) })
    }

    private static func encode<T: Encodable>(_ value: [T]) -> String {
        // The pretty printer writes an empty array over three lines.
        guard !value.isEmpty else { return "[]" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value here is finite (the weather gate checks ranges), so encoding cannot fail.
        guard let data = try? encoder.encode(value) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
