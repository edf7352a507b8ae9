import Catalog
import Foundation
import Models
@testable import Weather

/// Replies shaped like the real services' (field names and structure from their public API
/// documentation; values made up here), with knobs for nulls and gaps.
enum Replies {
    static let start = 1_764_374_400.0  // 2025-11-29T00:00:00Z

    /// One location as skycast asks for it: current conditions and hourly values (no daily block:
    /// the service sends only what was asked for).
    static func openMeteoLocation(temperature: Double? = 4.5, offset: Int = 3600, hours: Int = 168,
                                  nullHourEvery: Int? = nil) -> String {
        func number(_ value: Double?) -> String { value.map { String($0) } ?? "null" }
        let hourTimes = (0..<hours).map { String(Int(start) + $0 * 3600 - offset) }
        let hourTemps = (0..<hours).map { index -> String in
            if let every = nullHourEvery, index % every == 0 { return "null" }
            return number(Double(index % 24) / 2 - 2)
        }
        return """
        {"latitude":52.52,"longitude":13.41,"generationtime_ms":0.2,"utc_offset_seconds":\(offset),"timezone":"Europe/Berlin",
         "timezone_abbreviation":"CET","elevation":38.0,
         "current_units":{"time":"unixtime","temperature_2m":"°C"},
         "current":{"time":\(Int(start) + 50_400),"interval":900,"temperature_2m":\(number(temperature)),"apparent_temperature":1.2,
                    "relative_humidity_2m":81,"weather_code":61,"wind_speed_10m":14.4,"is_day":1},
         "hourly":{"time":[\(hourTimes.joined(separator: ","))],"temperature_2m":[\(hourTemps.joined(separator: ","))],
                   "weather_code":[\((0..<hours).map { _ in "3" }.joined(separator: ","))],
                   "precipitation_probability":[\((0..<hours).map { _ in "null" }.joined(separator: ","))]}}
        """
    }

    static func owmCurrent(conditionID: Int = 500, temperature: Double = 8.3) -> String {
        """
        {"coord":{"lon":-0.1257,"lat":51.5085},"weather":[{"id":\(conditionID),"main":"Rain","description":"light rain","icon":"10d"}],
         "base":"stations","main":{"temp":\(temperature),"feels_like":6.1,"temp_min":7.2,"temp_max":9.4,"pressure":1012,"humidity":87},
         "visibility":10000,"wind":{"speed":5.0,"deg":240},"clouds":{"all":90},"dt":\(Int(start) + 43_200),
         "sys":{"type":2,"id":2075535,"country":"GB","sunrise":\(Int(start) + 27_000),"sunset":\(Int(start) + 57_600)},
         "timezone":0,"id":2643743,"name":"London","cod":200}
        """
    }

    static func owmForecast(steps: Int = 40, codAsString: Bool = true) -> String {
        let items = (0..<steps).map { index -> String in
            let time = Int(start) + 43_200 + index * 10_800
            let id = [800, 801, 500, 500, 804, 600, 211, 741][index % 8]
            return """
            {"dt":\(time),"main":{"temp":\(5 + index % 8),"temp_min":\(4 + index % 8),"temp_max":\(6 + index % 8),"humidity":80},
             "weather":[{"id":\(id),"main":"x","description":"x","icon":"01d"}],"pop":\(Double(index % 5) / 5)}
            """
        }
        return """
        {"cod":\(codAsString ? "\"200\"" : "200"),"message":0,"cnt":\(steps),"list":[\(items.joined(separator: ","))],
         "city":{"id":2643743,"name":"London","country":"GB","timezone":0}}
        """
    }

    static func geocoding(_ results: [(id: Int, name: String)], dropFields: Bool = false) -> String {
        let items = results.map { result in
            dropFields ? #"{"id":\#(result.id),"name":"\#(result.name)","latitude":10.5,"longitude":20.25}"#
                : #"{"id":\#(result.id),"name":"\#(result.name)","latitude":64.1355,"longitude":-21.8954,"elevation":61.0,"country_code":"IS","admin1":"Capital Region","timezone":"Atlantic/Reykjavik","population":118918,"country":"Iceland"}"#
        }
        return #"{"results":[\#(items.joined(separator: ","))],"generationtime_ms":0.6}"#
    }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var now: Date

    init(_ start: Date = Date(timeIntervalSince1970: Replies.start + 50_400)) { now = start }

    func advance(by seconds: TimeInterval) {
        lock.lock(); now += seconds; lock.unlock()
    }

    var date: Date {
        lock.lock(); defer { lock.unlock() }
        return now
    }

    var function: @Sendable () -> Date { { [self] in date } }
}

func testCity(_ id: Int, _ name: String = "City", latitude: Double = 52.52, longitude: Double = 13.41) -> City {
    City(id: id, name: name, countryCode: "DE", countryName: "Germany", admin1: "Berlin", latitude: latitude,
         longitude: longitude, timeZone: "Europe/Berlin", population: 1000)
}

func fastConfiguration(timeout: Int = 5) -> NetworkManager.Configuration {
    var configuration = NetworkManager.Configuration()
    configuration.timeoutSeconds = timeout
    configuration.backoffBase = 0.05
    return configuration
}
