import Foundation
import Models

/// A one-line template for status bars (`skycast show --format`), in the manner of wttr.in's
/// `format=`: `%l` location, `%c` icon, `%C` condition, `%t` temperature, `%f` feels-like,
/// `%h` humidity, `%w` wind with a direction arrow, `%p` rain chance, `%x` today's high/low,
/// `%T` local time, `%%` a percent sign. A value the service did not send prints as "–".
public struct LineFormat: Sendable, Equatable {
    public static let codes: [(code: Character, meaning: String)] = [
        ("l", "location"), ("c", "icon"), ("C", "condition"), ("t", "temperature"), ("f", "feels-like"),
        ("h", "humidity"), ("w", "wind with a direction arrow"), ("p", "rain chance today"),
        ("x", "today's high/low"), ("T", "local time"), ("%", "a percent sign"),
    ]

    enum Part: Sendable, Equatable {
        case text(String)
        case code(Character)
    }

    let parts: [Part]

    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public init(parsing template: String) throws(FormatError) {
        var parts: [Part] = []
        var text = ""
        var characters = template.makeIterator()
        while let character = characters.next() {
            guard character == "%" else {
                text.append(character)
                continue
            }
            guard let code = characters.next() else { throw FormatError(message: "--format ends with a lone %; write %% for a percent sign") }
            guard Self.codes.contains(where: { $0.code == code }) else {
                throw FormatError(message: "--format: unknown code %\(code) (known: \(Self.codes.map { "%\($0.code)" }.joined(separator: " ")))")
            }
            if code == "%" {
                text.append("%")
            } else {
                if !text.isEmpty { parts.append(.text(text)) }
                text = ""
                parts.append(.code(code))
            }
        }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
    }

    /// The line for `weather`; `stale` data (from the cache, not refreshed) starts with "~".
    public func render(_ weather: CityWeather, units: Units, ascii: Bool, stale: Bool, now: Date) -> String {
        let degree = ascii ? "" : "°"
        let missing = ascii ? "-" : "–"
        let current = weather.current
        let today = weather.days(from: now).first
        var line = stale ? "~" : ""
        for part in parts {
            switch part {
            case let .text(text): line += text
            case let .code(code):
                switch code {
                case "l": line += weather.city.name
                case "c": line += current.weatherCode.icon(ascii: ascii, isDay: current.isDay ?? true)
                case "C": line += current.weatherCode.description
                case "t": line += Formatters.temperatureWithUnit(current.temperature, units, degree: degree)
                case "f": line += current.apparentTemperature.map { Formatters.temperatureWithUnit($0, units, degree: degree) } ?? missing
                case "h": line += current.humidity.map { "\($0)%" } ?? missing
                case "w":
                    let arrow = current.windDirection.map { Formatters.windArrow(from: $0, ascii: ascii) + (ascii ? " " : "") } ?? ""
                    line += current.windSpeed.map { _ in arrow + Formatters.wind(current.windSpeed, units, missing: missing) } ?? missing
                case "p": line += today?.precipitationProbability.map { "\($0)%" } ?? missing
                case "x": line += today.map { Formatters.highLow($0.high, $0.low, units, degree: degree) } ?? missing
                case "T": line += Formatters.clock(now, utcOffsetSeconds: weather.zone.offsetSeconds(at: now))
                default: break
                }
            }
        }
        return line
    }
}
