import Foundation

/// Sunrise and sunset, computed from the place and the date (the NOAA solar equations, to about a
/// minute): no service is asked, so the details show them for every provider.
public enum SunTimes {
    /// Sunrise and sunset of the UTC day around `date` at a place; nil for a polar day or night.
    public static func times(latitude: Double, longitude: Double, on date: Date) -> (rise: Date, set: Date)? {
        let day = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        // Julian centuries since J2000, at the place's solar noon.
        let julianDay = day + 2_440_587.5 + 0.5 - longitude / 360
        let t = (julianDay - 2_451_545) / 36_525
        let radians = Double.pi / 180
        let meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let center = sin(meanAnomaly * radians) * (1.914602 - t * (0.004817 + 0.000014 * t))
            + sin(2 * meanAnomaly * radians) * (0.019993 - 0.000101 * t) + sin(3 * meanAnomaly * radians) * 0.000289
        let apparentLongitude = meanLongitude + center - 0.00569 - 0.00478 * sin((125.04 - 1934.136 * t) * radians)
        let obliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
            + 0.00256 * cos((125.04 - 1934.136 * t) * radians)
        let declination = asin(sin(obliquity * radians) * sin(apparentLongitude * radians))
        let y = pow(tan(obliquity * radians / 2), 2)
        let equationOfTime = 4 / radians * (y * sin(2 * meanLongitude * radians) - 2 * eccentricity * sin(meanAnomaly * radians)
            + 4 * eccentricity * y * sin(meanAnomaly * radians) * cos(2 * meanLongitude * radians)
            - 0.5 * y * y * sin(4 * meanLongitude * radians) - 1.25 * eccentricity * eccentricity * sin(2 * meanAnomaly * radians))
        let cosHourAngle = (cos(90.833 * radians) - sin(latitude * radians) * sin(declination)) / (cos(latitude * radians) * cos(declination))
        guard (-1...1).contains(cosHourAngle) else { return nil }
        let hourAngle = acos(cosHourAngle) / radians
        let noonMinutes = 720 - 4 * longitude - equationOfTime
        let midnight = day * 86_400
        return (Date(timeIntervalSince1970: midnight + (noonMinutes - 4 * hourAngle) * 60),
                Date(timeIntervalSince1970: midnight + (noonMinutes + 4 * hourAngle) * 60))
    }
}
