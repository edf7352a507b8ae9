import Foundation
import Models

/// Where the providers live. The real services are the defaults; environment variables point them
/// elsewhere (a mirror, or a loopback server in tests). Plain `http://` is accepted only for loopback.
public struct Endpoints: Sendable, Equatable {
    public var openMeteo: URL
    public var geocoding: URL
    public var openWeatherMap: URL

    public static let defaults = Endpoints(
        openMeteo: URL(string: "https://api.open-meteo.com")!,
        geocoding: URL(string: "https://geocoding-api.open-meteo.com")!,
        openWeatherMap: URL(string: "https://api.openweathermap.org")!)

    public init(openMeteo: URL, geocoding: URL, openWeatherMap: URL) {
        self.openMeteo = openMeteo
        self.geocoding = geocoding
        self.openWeatherMap = openWeatherMap
    }

    /// The defaults, overridden by `SKYCAST_OPEN_METEO_URL`, `SKYCAST_GEOCODING_URL` and
    /// `SKYCAST_OPENWEATHERMAP_URL`.
    public static func fromEnvironment(_ environment: [String: String]) throws(WeatherError) -> Endpoints {
        var endpoints = defaults
        if let value = environment["SKYCAST_OPEN_METEO_URL"], !value.isEmpty {
            endpoints.openMeteo = try validated(value, variable: "SKYCAST_OPEN_METEO_URL")
        }
        if let value = environment["SKYCAST_GEOCODING_URL"], !value.isEmpty {
            endpoints.geocoding = try validated(value, variable: "SKYCAST_GEOCODING_URL")
        }
        if let value = environment["SKYCAST_OPENWEATHERMAP_URL"], !value.isEmpty {
            endpoints.openWeatherMap = try validated(value, variable: "SKYCAST_OPENWEATHERMAP_URL")
        }
        return endpoints
    }

    public static func validated(_ text: String, variable: String) throws(WeatherError) -> URL {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty, let url = components.url else {
            throw WeatherError(.invalidURL("\(variable)=\(text) is not a URL"))
        }
        switch scheme {
        case "https": return url
        case "http" where isLoopback(host): return url
        case "http": throw WeatherError(.invalidURL("\(variable): plain http:// is accepted only for loopback addresses; use https://"))
        default: throw WeatherError(.invalidURL("\(variable): unsupported scheme \(scheme)://"))
        }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}

extension URL {
    /// `base` + `path` + query items, keeping any path prefix of `base`.
    static func endpoint(_ base: URL, path: String, query: [(String, String)]) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + path
        components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        // Commas separate many locations in one Open-Meteo request: keep them literal.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "%2C", with: ",")
        return components.url
    }
}
