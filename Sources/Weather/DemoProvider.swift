import Foundation
import Models

/// Simulated weather for trying skycast with no network: a deterministic function of the city, its
/// latitude, the season and the hour. Every result is marked `isDemo` and shown as such.
public struct DemoProvider: WeatherProvider {
    public let id = ProviderID.demo
    public let citiesPerJob = 50
    public let limits = ServiceLimits(maxInFlight: 8, callWindow: nil)
    public let serviceURL: URL? = nil
    let clock: @Sendable () -> Date

    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    public func fetch(_ cities: [City], network: NetworkManager) async -> [Result<CityWeather, WeatherError>] {
        let now = clock()
        return cities.map { city in
            do throws(WeatherError) { return .success(try weather(for: city, at: now)) } catch { return .failure(error) }
        }
    }

    public func weather(for city: City, at now: Date) throws(WeatherError) -> CityWeather {
        let offset = TimeZone(identifier: city.timeZone)?.secondsFromGMT(for: now) ?? Int(saturating: city.longitude / 15) * 3600
        let hourStart = (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600
        func temperature(at time: Double) -> Double {
            let localHours = (time + Double(offset)) / 3600
            let day = (localHours / 24).rounded(.down)
            let hourOfDay = localHours - day * 24
            let dayOfYear = (time / 86_400).truncatingRemainder(dividingBy: 365.25) - 15
            let latitude = abs(city.latitude)
            let seasonal = -cos(2 * Double.pi * dayOfYear / 365.25) * (city.latitude >= 0 ? 1 : -1)
            let mean = 30 - 0.35 * latitude + seasonal * 0.16 * latitude
            let diurnal = 4 * cos(2 * Double.pi * (hourOfDay - 15) / 24)
            // Day-to-day variation, blended across the day so that midnight has no jump.
            let today = noise(city.id, Int(day), salt: 1)
            let tomorrow = noise(city.id, Int(day) + 1, salt: 1)
            return mean + diurnal + (today + (tomorrow - today) * hourOfDay / 24) * 3
        }
        func code(at time: Double, temperature: Double) -> WeatherCode {
            let day = Int(((time + Double(offset)) / 86_400).rounded(.down))
            let roll = (noise(city.id, day, salt: 2) + 1) / 2
            let wet = roll > 0.62
            if wet { return WeatherCode(temperature < 0.5 ? 73 : roll > 0.93 ? 95 : roll > 0.8 ? 63 : 61) }
            return WeatherCode([0, 1, 2, 3, 2, 45][Int(roll * 9.67) % 6])
        }
        var hours: [HourlyForecast] = []
        for index in -24..<(24 * 7) {
            let time = hourStart + Double(index) * 3600
            let value = temperature(at: time)
            let weatherCode = code(at: time, temperature: value)
            let rain = weatherCode.rawValue >= 51 ? 40 + Int((noise(city.id, index, salt: 3) + 1) * 25) : Int((noise(city.id, index, salt: 4) + 1) * 10)
            hours.append(HourlyForecast(time: Date(timeIntervalSince1970: time), temperature: value, weatherCode: weatherCode,
                                        precipitationProbability: rain))
        }
        var days: [DailyForecast] = []
        var grouped: [(LocalDate, [HourlyForecast])] = []
        for hour in hours {
            let date = LocalDate(time: hour.time, utcOffsetSeconds: offset)
            if grouped.last?.0 == date { grouped[grouped.count - 1].1.append(hour) } else { grouped.append((date, [hour])) }
        }
        for (date, items) in grouped where items.count >= 12 {
            let temperatures = items.compactMap(\.temperature)
            days.append(DailyForecast(date: date, weatherCode: items[items.count / 2].weatherCode, high: temperatures.max()!,
                                      low: temperatures.min()!, precipitationProbability: items.compactMap(\.precipitationProbability).max()))
        }
        let currentTemperature = temperature(at: now.timeIntervalSince1970)
        let localHour = ((now.timeIntervalSince1970 + Double(offset)) / 3600).truncatingRemainder(dividingBy: 24)
        let current = CurrentWeather(
            temperature: currentTemperature,
            apparentTemperature: currentTemperature - 2 - noise(city.id, 7, salt: 5) * 2,
            weatherCode: code(at: now.timeIntervalSince1970, temperature: currentTemperature),
            humidity: 55 + Int(noise(city.id, Int(hourStart / 3600), salt: 6) * 30),
            windSpeed: 12 + noise(city.id, Int(hourStart / 3600), salt: 7) * 10,
            windDirection: (noise(city.id, Int(hourStart / 3600), salt: 8) + 1) * 180,
            isDay: localHour >= 7 && localHour < 19,
            observedAt: Date(timeIntervalSince1970: hourStart))
        return try CityWeather(city: city, current: current, daily: days, hourly: hours, utcOffsetSeconds: offset,
                               fetchedAt: now, provider: id, isDemo: true)
    }

    /// A deterministic value in −1…1 for (city, step, salt): the same every run, on every machine.
    private func noise(_ city: Int, _ step: Int, salt: UInt64) -> Double {
        var z = UInt64(bitPattern: Int64(city)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(step)) &* 0xBF58_476D_1CE4_E5B9 ^ salt
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z % 2_000_001) / 1_000_000 - 1
    }
}
