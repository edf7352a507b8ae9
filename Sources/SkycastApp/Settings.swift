import Foundation
import Models
import SkycastCore
import Storage
import Terminal
import Weather

/// Flags over config.json over defaults, plus the environment: everything a run needs to start.
public struct Settings: Sendable {
    public var provider: ProviderID
    public var units: Units
    /// The units a flag asked for: they win over what the table remembers.
    public var unitsFlag: Units?
    public var apiKey: String?
    public var timeoutSeconds: Int
    public var useCache: Bool
    public var endpoints: Endpoints
    public var refreshInterval: TimeInterval
    public var overrides: TerminalCapabilities.Overrides
    public var mouse: Bool
    public var environment: [String: String]
    /// Problems found in config.json, to show.
    public var warnings: [String]

    public static func resolve(_ options: Options, environment: [String: String]) throws(WeatherError) -> Settings {
        let loaded = Config.load(from: Config.file(environment: environment))
        let config = loaded.config
        let provider = options.demo ? .demo : options.provider ?? config.provider ?? .openMeteo
        return Settings(
            provider: provider,
            units: options.units ?? config.units ?? .metric,
            unitsFlag: options.units,
            apiKey: environment["OPENWEATHERMAP_API_KEY"].flatMap { $0.isEmpty ? nil : $0 } ?? config.apiKey,
            timeoutSeconds: options.timeoutSeconds ?? 10,
            useCache: !options.noCache,
            endpoints: try Endpoints.fromEnvironment(environment),
            refreshInterval: config.refreshInterval ?? 600,
            overrides: .init(noColor: options.noColor, ascii: options.ascii || config.ascii == true,
                             noAnimation: options.noAnimation || config.animation == false),
            mouse: !options.noMouse,
            environment: environment,
            warnings: loaded.problems)
    }

    public func makeProvider() -> any WeatherProvider {
        switch provider {
        case .openMeteo: return OpenMeteoProvider(baseURL: endpoints.openMeteo)
        case .openWeatherMap: return OpenWeatherMapProvider(apiKey: apiKey, baseURL: endpoints.openWeatherMap)
        case .demo: return DemoProvider()
        }
    }

    public func makeNetworkManager() -> NetworkManager {
        var configuration = NetworkManager.Configuration()
        configuration.timeoutSeconds = timeoutSeconds
        // Pauses a service asked for are kept even with --no-cache: skipping them would only ask again.
        configuration.pauseFile = XDGDirectories.cache(environment: environment).appendingPathComponent("pauses.json")
        let cache = useCache ? WeatherCache(directory: XDGDirectories.cache(environment: environment)) : nil
        return NetworkManager(provider: makeProvider(), configuration: configuration, cache: cache)
    }

    public var bookmarkStore: BookmarkStore { .standard(environment: environment) }

    public var geocoder: Geocoder { Geocoder(baseURL: endpoints.geocoding) }

    public var language: String { Geocoder.language(fromLocale: environment["LC_ALL"] ?? environment["LANG"]) }
}
