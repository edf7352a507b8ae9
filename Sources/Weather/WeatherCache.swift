import Foundation
import Models
import Storage

/// Weather kept on disk between runs, one file per provider + city, so that the first frame
/// shows data before any reply. Fresh entries (younger than `timeToLive`) replace a request; stale
/// ones are shown at once and refreshed. Writes are atomic; an unreadable entry is ignored and
/// replaced by the next store. The model is metric whatever the display units, so one entry serves
/// both and switching units never refetches.
public struct WeatherCache: Sendable {
    public struct Entry: Sendable {
        public var weather: CityWeather
        public var age: TimeInterval
        public var isFresh: Bool
    }

    public let directory: URL
    public let timeToLive: TimeInterval

    /// Entries younger than this replace a request.
    public static let defaultTimeToLive: TimeInterval = 600

    public init(directory: URL, timeToLive: TimeInterval = defaultTimeToLive) {
        self.directory = directory
        self.timeToLive = timeToLive
    }

    func fileURL(provider: ProviderID, city: City) -> URL {
        directory.appendingPathComponent("\(provider.rawValue)-\(city.id).json")
    }

    public func load(provider: ProviderID, city: City, now: Date) -> Entry? {
        guard let data = try? Data(contentsOf: fileURL(provider: provider, city: city)),
              var weather = try? Self.decoder.decode(CityWeather.self, from: data),
              weather.city.id == city.id, weather.provider == provider else { return nil }
        weather.city = city
        let age = now.timeIntervalSince(weather.fetchedAt)
        return Entry(weather: weather, age: max(0, age), isFresh: age >= 0 && age < timeToLive)
    }

    /// Best effort: a cache that cannot be written only costs a request next time.
    public func store(_ weather: CityWeather) {
        guard !weather.isDemo, let data = try? Self.encoder.encode(weather) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? AtomicFile.write(data, to: fileURL(provider: weather.provider, city: weather.city))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
