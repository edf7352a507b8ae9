import Foundation


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

    /// Calls one city costs a refresh, as the service counts them: Open-Meteo weighs a location of at
    /// most 10 variables over at most 14 days as one call (skycast asks for 9 over 7);
    /// OpenWeatherMap takes two requests a city (current conditions and the forecast).
    public var callsPerCity: Double {
        switch self {
        case .openMeteo: return 1
        case .openWeatherMap: return 2
        case .demo: return 0
        }
    }

    /// The calls a day skycast allows itself: half of the free quota, leaving room for a second
    /// instance or a status bar. Open-Meteo's free API allows 10,000 a day (600 a minute, 5,000 an
    /// hour); OpenWeatherMap's free plan 1,000,000 a month, about 33,000 a day.
    public var dailyCallBudget: Double? {
        switch self {
        case .openMeteo: return 5_000
        case .openWeatherMap: return 16_000
        case .demo: return nil
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
    /// Which of a service's limits refused a request: it says how long to wait.
    public enum RateLimit: String, Sendable, Equatable, Codable {
        case minutely, hourly, daily
        /// Too many requests at once: back off a moment with fewer in flight.
        case concurrent
        /// A limit the service did not name.
        case unnamed
    }

    public enum Kind: Sendable, Equatable {
        /// No answer: `attempts` tries, `seconds` in all.
        case timeout(seconds: Int, attempts: Int)
        case offline(String)
        /// Refused for a limit, with the service's own words; `retryAt` is when skycast asks again.
        case rateLimited(RateLimit, reason: String, retryAt: Date?)
        /// HTTP 401, with the service's words (a new OpenWeatherMap key answers 401 until it is activated).
        case badAPIKey(reason: String)
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
    /// Who failed, when not a weather provider ("the geocoder").
    public var service: String?

    public init(_ kind: Kind, city: City? = nil, provider: ProviderID? = nil) {
        self.kind = kind
        self.city = city
        self.provider = provider
    }

    /// One line for the status bar or stderr.
    public var message: String {
        let service = self.service ?? provider?.displayName ?? "the weather service"
        switch kind {
        case let .timeout(seconds, attempts):
            return attempts > 1 ? "\(service): no answer after \(attempts) tries (\(seconds) s)" : "\(service) did not answer within \(seconds) s"
        case let .offline(reason): return "cannot reach \(service): \(reason)"
        case let .rateLimited(_, reason, retryAt):
            let said = reason.isEmpty ? "too many requests (HTTP 429)" : reason
            return "\(service): \(said)" + (retryAt.map { " \u{2014} next try \(Self.utcClock($0))" } ?? "")
        case let .badAPIKey(reason):
            return "\(service) rejected the API key (HTTP 401)" + (reason.isEmpty ? "" : ": \(reason)") + "; check OPENWEATHERMAP_API_KEY"
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

    /// "00:00 UTC": the time of day in UTC, rounded up to the minute.
    static func utcClock(_ date: Date) -> String {
        let seconds = Int(max(-1e12, min(1e12, date.timeIntervalSince1970)).rounded(.up))
        let minutes = ((seconds / 60) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d UTC", minutes / 60, minutes % 60)
    }

    public var description: String {
        city.map { "\($0.shortName): \(message)" } ?? message
    }
}
