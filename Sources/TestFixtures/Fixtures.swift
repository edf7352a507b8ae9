import Catalog
import Foundation
import Models
import SkycastCore
import Weather

/// Cities and weather for the tests of the app and its core: demo weather at a fixed instant, so
/// every run draws the same.
public enum Fixtures {
    public static let now = Date(timeIntervalSince1970: 1_764_417_600)  // 2025-11-29T12:00:00Z

    public static func city(_ id: Int, _ name: String, _ country: String, admin1: String = "", latitude: Double = 45, longitude: Double = 10,
                     timeZone: String = "UTC") -> City {
        City(id: id, name: name, countryCode: country, countryName: country, admin1: admin1, latitude: latitude,
             longitude: longitude, timeZone: timeZone, population: 100_000)
    }

    public static let seoul = city(1835848, "Seoul", "KR", admin1: "Seoul", latitude: 37.566, longitude: 126.978, timeZone: "Asia/Seoul")
    public static let tokyo = city(1850147, "東京", "JP", admin1: "Tokyo", latitude: 35.69, longitude: 139.69, timeZone: "Asia/Tokyo")
    public static let saoPaulo = city(3448439, "São Paulo", "BR", latitude: -23.55, longitude: -46.64, timeZone: "America/Sao_Paulo")
    public static let zurich = city(2657896, "Zürich", "CH", latitude: 47.37, longitude: 8.55, timeZone: "Europe/Zurich")
    public static let hostile = city(99, "Evil\u{1B}[2J\u{1B}]0;pwn\u{7}Town\u{202E}", "ZZ")

    /// Where the tests keep the catalog index: built by the first test process, mapped by the rest.
    public static let indexDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-tests-catalog")

    /// The bundled catalog with its alternate names, opened once for all tests.
    public static let catalog: Catalog = {
        do {
            return try Catalog.open(indexDirectory: indexDirectory)
        } catch {
            fatalError("the tests need the bundled city data: \(error)")
        }
    }()

    public static func weather(_ city: City) -> CityWeather {
        try! DemoProvider().weather(for: city, at: now)
    }

    public static func state(bookmarks: [City], size: TerminalSize = TerminalSize(rows: 24, columns: 80)) -> AppState {
        var state = AppState(provider: .demo, units: .metric, bookmarks: bookmarks, size: size)
        for city in bookmarks { state.weather[city.id] = .loaded(weather(city)) }
        return state
    }
}
