import Foundation
import Models
import TextLayout

/// A weather service. Each turns its own replies into the normalised model (WMO codes, metric units,
/// local dates); nothing above this layer knows which one answered.
public protocol WeatherProvider: Sendable {
    var id: ProviderID { get }
    /// How many cities one job covers: many cities share one request where the service allows it.
    var citiesPerJob: Int { get }
    /// One result per city of `cities`, complete or an error naming the city.
    func fetch(_ cities: [City], network: NetworkManager) async -> [Result<CityWeather, WeatherError>]
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
        case .timeout, .rateLimited: return true
        case let .server(status, _): return status >= 500
        default: return false
        }
    }
}

extension WeatherError.Kind {
    /// What a non-success HTTP status means, whichever service sent it. `reason` is the service's own
    /// words, shown sanitised and cut to one line.
    static func httpStatus(_ status: Int, reason: String?) -> WeatherError.Kind {
        switch status {
        case 401: return .badAPIKey
        case 404: return .notFound
        case 429: return .rateLimited
        default: return .server(status: status, reason: TerminalText.truncated(TerminalText.sanitized(reason ?? ""), to: 120))
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
