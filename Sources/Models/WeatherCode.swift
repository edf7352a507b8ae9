/// A WMO weather interpretation code (WMO 4677, as Open-Meteo reports them). Every provider's
/// conditions are normalised to these.
public struct WeatherCode: RawRepresentable, Sendable, Hashable, Codable {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public var description: String {
        switch rawValue {
        case 0: return "Clear sky"
        case 1: return "Mainly clear"
        case 2: return "Partly cloudy"
        case 3: return "Overcast"
        case 45: return "Fog"
        case 48: return "Rime fog"
        case 51: return "Light drizzle"
        case 53: return "Drizzle"
        case 55: return "Dense drizzle"
        case 56, 57: return "Freezing drizzle"
        case 61: return "Light rain"
        case 63: return "Rain"
        case 65: return "Heavy rain"
        case 66, 67: return "Freezing rain"
        case 71: return "Light snow"
        case 73: return "Snow"
        case 75: return "Heavy snow"
        case 77: return "Snow grains"
        case 80: return "Light showers"
        case 81: return "Showers"
        case 82: return "Violent showers"
        case 85, 86: return "Snow showers"
        case 95: return "Thunderstorm"
        case 96, 99: return "Thunderstorm, hail"
        default: return "Unknown (\(rawValue))"
        }
    }

    enum Family { case clear, partlyCloudy, cloudy, fog, rain, snow, thunder, unknown }

    /// What each icon means, for the help: every icon different, in ASCII too.
    public static func legend(ascii: Bool) -> [(icon: String, meaning: String)] {
        ascii
            ? [("O", "clear"), (")", "clear night"), ("c", "partly cloudy"), ("C", "cloudy"), ("=", "fog"), ("/", "rain"), ("*", "snow"),
               ("!", "thunder")]
            : [("☀", "clear"), ("☾", "clear night"), ("☁", "cloudy"), ("≡", "fog"), ("☂", "rain"), ("❄", "snow"), ("↯", "thunder")]
    }

    var family: Family {
        switch rawValue {
        case 0, 1: return .clear
        case 2: return .partlyCloudy
        case 3: return .cloudy
        case 45, 48: return .fog
        case 51...67, 80...82: return .rain
        case 71...77, 85, 86: return .snow
        case 95...99: return .thunder
        default: return .unknown
        }
    }

    /// One terminal cell, never an emoji (emoji widths differ between terminals and break alignment).
    public func icon(ascii: Bool, isDay: Bool = true) -> String {
        switch family {
        case .clear: return ascii ? (isDay ? "O" : ")") : (isDay ? "☀" : "☾")
        case .partlyCloudy: return ascii ? "c" : "☁"
        case .cloudy: return ascii ? "C" : "☁"
        case .fog: return ascii ? "=" : "≡"
        case .rain: return ascii ? "/" : "☂"
        case .snow: return ascii ? "*" : "❄"
        case .thunder: return ascii ? "!" : "↯"
        case .unknown: return "?"
        }
    }

    /// How bad the weather is, to pick one code for a day out of several.
    public var severity: Int {
        switch family {
        case .clear: return rawValue
        case .partlyCloudy: return 2
        case .cloudy: return 3
        case .fog: return 4
        case .rain, .snow, .thunder: return rawValue
        case .unknown: return 0
        }
    }
}
