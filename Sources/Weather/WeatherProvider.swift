import Foundation
import Models
import TextLayout

/// A weather service. Each turns its own replies into the normalised model (WMO codes, metric units,
/// local dates); nothing above this layer knows which one answered.
public protocol WeatherProvider: Sendable {
    var id: ProviderID { get }
    /// How many cities one job covers: many cities share one request where the service allows it.
    var citiesPerJob: Int { get }
    /// What the service allows one client; the network manager keeps to it.
    var limits: ServiceLimits { get }
    /// The service's address (its host's calls are counted); none for simulated data.
    var serviceURL: URL? { get }
    /// One result per city of `cities`, complete or an error naming the city.
    func fetch(_ cities: [City], network: NetworkManager) async -> [Result<CityWeather, WeatherError>]
}

/// The limits a service sets on one client address.
public struct ServiceLimits: Sendable {
    /// Requests on the wire at once (all of this manager's, geocoding included: one client address).
    public var maxInFlight: Int
    /// At most `calls` requests to the provider's own host in any `seconds`, when the service counts them.
    public var callWindow: (calls: Int, seconds: Double)?

    public init(maxInFlight: Int, callWindow: (calls: Int, seconds: Double)?) {
        self.maxInFlight = maxInFlight
        self.callWindow = callWindow
    }
}

extension WeatherProvider {
    func failing(_ cities: [City], with error: WeatherError) -> [Result<CityWeather, WeatherError>] {
        cities.map { city in
            var error = error
            error.city = city
            error.provider = id
            return .failure(error)
        }
    }
}

extension Int {
    /// The nearest whole number, clamped to ±1e9: a value from the network must never trap the
    /// conversion (Int(1e308) does); range checks then reject what is implausible.
    init(saturating value: Double) {
        self = value.isNaN ? 0 : Int(Swift.max(-1e9, Swift.min(1e9, value)).rounded())
    }
}

extension WeatherError {
    /// Whether trying again may help.
    var isRetryable: Bool {
        switch kind {
        case .timeout, .rateLimited(.concurrent, _, _): return true
        case let .server(status, _): return status >= 500
        default: return false
        }
    }
}

extension WeatherError {
    /// A service's own words, shown as sent: sanitised for the terminal, cut only when absurdly long.
    static func servicesWords(_ text: String?) -> String {
        TerminalText.truncated(TerminalText.sanitized(text ?? ""), to: 300)
    }
}

extension WeatherError.Kind {
    /// What a non-success HTTP status means, whichever service sent it. `reason` is the service's own
    /// words, shown sanitised and cut to one line.
    static func httpStatus(_ status: Int, reason: String?) -> WeatherError.Kind {
        switch status {
        case 401: return .badAPIKey(reason: WeatherError.servicesWords(reason))
        case 404: return .notFound
        case 429: return .rateLimited(.unnamed, reason: WeatherError.servicesWords(reason), retryAt: nil)
        default: return .server(status: status, reason: WeatherError.servicesWords(reason))
        }
    }
}

/// Decodes JSON, turning any failure into a one-line reason.
func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data) throws(WeatherError) -> T {
    do {
        return try JSONDecoder().decode(type, from: data)
    } catch let DecodingError.dataCorrupted(context) {
        throw WeatherError(.invalidResponse("malformed JSON (\(context.debugDescription.prefix(60)))"))
    } catch let DecodingError.keyNotFound(key, _) {
        throw WeatherError(.invalidResponse("missing field \(key.stringValue)"))
    } catch let DecodingError.typeMismatch(_, context) {
        throw WeatherError(.invalidResponse("unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"))
    } catch {
        throw WeatherError(.invalidResponse("malformed JSON"))
    }
}
