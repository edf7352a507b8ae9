import Foundation
import Models

/// How numbers, temperatures, wind, times and ages read, everywhere skycast shows them (table,
/// details, `show`). `degree` is "°", or "" where only ASCII can be shown.
public enum Formatters {
    /// "4°", "-12°" (ASCII: "4", "-12").
    public static func temperature(_ celsius: Double, _ units: Units, degree: String) -> String {
        "\(Int(units.temperature(celsius).rounded()))\(degree)"
    }

    /// "4°C" (ASCII: "4C").
    public static func temperatureWithUnit(_ celsius: Double, _ units: Units, degree: String) -> String {
        temperature(celsius, units, degree: degree) + (units == .metric ? "C" : "F")
    }

    /// "°C" (ASCII: "C").
    public static func unitSymbol(_ units: Units, degree: String) -> String {
        degree + (units == .metric ? "C" : "F")
    }

    /// "17°/9°" (ASCII: "17/9").
    public static func highLow(_ high: Double, _ low: Double, _ units: Units, degree: String) -> String {
        "\(temperature(high, units, degree: degree))/\(temperature(low, units, degree: degree))"
    }

    /// "4°", or `missing` when the service sent none.
    public static func temperature(_ celsius: Double?, _ units: Units, degree: String, missing: String) -> String {
        celsius.map { temperature($0, units, degree: degree) } ?? missing
    }

    /// "12 km/h", "7 mph"; `missing` when unknown.
    public static func wind(_ kilometresPerHour: Double?, _ units: Units, missing: String) -> String {
        kilometresPerHour.map { "\(Int(units.speed($0).rounded())) \(units.speedSymbol)" } ?? missing
    }

    /// Where the wind blows to, from the direction it comes from: a north wind (0°) is "↓".
    /// ASCII gives the direction it comes from: "N", "SW".
    public static func windArrow(from degrees: Double, ascii: Bool) -> String {
        let sector = Int(((degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 45).rounded()) % 8
        return ascii ? ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][sector] : ["↓", "↙", "←", "↖", "↑", "↗", "→", "↘"][sector]
    }

    /// "71 %"; `missing` when unknown.
    public static func percent(_ value: Int?, missing: String) -> String {
        value.map { "\($0) %" } ?? missing
    }

    /// "10,349,312".
    public static func grouped(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    /// "14:05": the time of day at `offset` seconds east of UTC.
    public static func clock(_ date: Date, utcOffsetSeconds offset: Int) -> String {
        let seconds = Int(max(-1e12, min(1e12, date.timeIntervalSince1970)).rounded(.down)) + offset
        let minutes = ((seconds / 60) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// "35m", "2h", "3d": an age in at most three cells.
    public static func compactAge(from date: Date, now: Date) -> String {
        let minutes = Int(max(0, now.timeIntervalSince(date)) / 60)
        switch minutes {
        case ..<60: return "\(minutes)m"
        case ..<(60 * 48): return "\(minutes / 60)h"
        default: return "\(min(99, minutes / 1440))d"
        }
    }

    /// "updated just now", "updated 3 min ago", "updated 2 h ago"; "no data yet" without a date.
    public static func age(from date: Date?, now: Date) -> String {
        guard let date else { return "no data yet" }
        let seconds = max(0, now.timeIntervalSince(date))
        switch seconds {
        case ..<60: return "updated just now"
        case ..<3600: return "updated \(Int(seconds / 60)) min ago"
        case ..<172_800: return "updated \(Int(seconds / 3600)) h ago"
        default: return "updated \(Int(seconds / 86_400)) days ago"
        }
    }
}
