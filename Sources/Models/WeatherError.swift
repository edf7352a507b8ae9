
/// Which service answered.
public enum ProviderID: String, Sendable, Codable, CaseIterable {
    case openMeteo = "open-meteo"
    case openWeatherMap = "openweathermap"
    case demo

    public var displayName: String {
        switch self {
        case .openMeteo: return "Open-Meteo"
        case .openWeatherMap: return "OpenWeatherMap"
        case .demo: return "Demo"
        }
    }

    /// The credit the data's licence asks for, shown near the data.
    public var attribution: String {
        switch self {
        case .openMeteo: return "Weather data by Open-Meteo.com"
        case .openWeatherMap: return "Weather data by OpenWeatherMap"
        case .demo: return "Simulated demo data"
        }
    }
}

/// Why a city has no weather. Carries a one-line message for people and the city it concerns.
public struct WeatherError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case timeout(seconds: Int)
        case offline(String)
        case rateLimited
        case badAPIKey
        case missingAPIKey
        case notFound
        case server(status: Int, reason: String)
        case invalidResponse(String)
        case tooLarge(limit: Int)
        case cancelled
        case invalidURL(String)
    }

    public var kind: Kind
    public var city: City?
    public var provider: ProviderID?

    public init(_ kind: Kind, city: City? = nil, provider: ProviderID? = nil) {
        self.kind = kind
        self.city = city
        self.provider = provider
    }

    /// One line for the status bar or stderr.
    public var message: String {
        let service = provider?.displayName ?? "the weather service"
        switch kind {
        case let .timeout(seconds): return "\(service) did not answer within \(seconds) s"
        case let .offline(reason): return "cannot reach \(service): \(reason)"
        case .rateLimited: return "\(service) is rate-limiting requests (HTTP 429); try again later"
        case .badAPIKey: return "OpenWeatherMap rejected the API key (HTTP 401): set OPENWEATHERMAP_API_KEY"
        case .missingAPIKey: return "OpenWeatherMap needs an API key: set OPENWEATHERMAP_API_KEY or api_key in config.json"
        case .notFound: return "\(service) has no data for this place (HTTP 404)"
        case let .server(status, reason): return "\(service) answered HTTP \(status)\(reason.isEmpty ? "" : ": \(reason)")"
        case let .invalidResponse(reason): return "\(service) sent an unusable reply: \(reason)"
        case let .tooLarge(limit): return "\(service) sent more than \(limit / 1_000_000) MB; reply ignored"
        case .cancelled: return "cancelled"
        case let .invalidURL(reason): return reason
        }
    }

    /// A few words for a table row: "timeout — r to retry".
    public var shortReason: String {
        switch kind {
        case .timeout: return "timeout"
        case .offline: return "offline"
        case .rateLimited: return "rate limited"
        case .badAPIKey: return "bad API key"
        case .missingAPIKey: return "no API key"
        case .notFound: return "not found"
        case let .server(status, _): return "HTTP \(status)"
        case .invalidResponse: return "bad reply"
        case .tooLarge: return "reply too large"
        case .cancelled: return "cancelled"
        case .invalidURL: return "bad URL"
        }
    }

    public var description: String {
        city.map { "\($0.shortName): \(message)" } ?? message
    }
}
