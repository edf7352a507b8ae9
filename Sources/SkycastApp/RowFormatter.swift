import Catalog
import Foundation
import Models
import SkycastCore
import Terminal
import TextLayout
import Weather

/// The text and styles of table rows, their header, and the small formats they share.
enum RowFormatter {
    /// The column header. Given the days of the strip, it names them ("Today Tue Wed …").
    static func header(_ layout: RowLayout, glyphs: Glyphs, days: [LocalDate] = []) -> StyledLine {
        var text = String(repeating: " ", count: RowLayout.markerWidth) + TerminalText.fitted("CITY", to: layout.nameWidth) + " "
        if layout.showsClock { text += TerminalText.fitted("TIME", to: RowLayout.clockWidth) }
        text += layout.conditionWidth > 0 ? TerminalText.fitted("NOW", to: layout.conditionWidth) + " " : "  "
        text += TerminalText.fitted("TEMP", to: RowLayout.temperatureWidth, alignRight: true)
        if layout.showsExtras {
            text += TerminalText.fitted("FEELS", to: RowLayout.feelsWidth, alignRight: true) + "  "
                + TerminalText.fitted("WIND", to: RowLayout.windWidth - 2) + TerminalText.fitted("RAIN", to: RowLayout.rainWidth, alignRight: true)
        }
        text += layout.strip == .none ? "" : "   "
        switch layout.strip {
        case let .days(count) where days.count >= count:
            text += days.prefix(count).enumerated().map { index, day in
                TerminalText.fitted(index == 0 ? "Today" : day.weekdayAbbreviation, to: RowLayout.daySlotWidth)
            }.joined()
        case let .days(count): text += "NEXT \(count) DAYS"
        case let .hours(count): text += "NEXT \(count) H"
        case .none: break
        }
        return StyledLine(text, TextStyle(bold: true, dim: true))
    }

    static func line(for row: CityRow, layout: RowLayout, capabilities: TerminalCapabilities, now: Date) -> StyledLine {
        let glyphs = capabilities.glyphs
        let ascii = !capabilities.unicode
        var line = StyledLine()
        line.append(" ")
        line.append(row.bookmarked ? glyphs.star : " ", row.bookmarked ? TextStyle(foreground: .yellow, bold: true) : .plain)
        line.append("  ")
        line.append(TerminalText.fitted(TerminalText.sanitized(row.name), to: layout.nameWidth, ellipsis: glyphs.ellipsis) + " ")
        if layout.showsClock {
            let zone = row.status.weather?.zone ?? LocalZone(identifier: row.city.timeZone, fallbackOffsetSeconds: 0)
            let known = row.status.weather != nil || zone.timeZone != nil
            line.append(TerminalText.fitted(known ? Formatters.clock(now, utcOffsetSeconds: zone.offsetSeconds(at: now)) : "", to: RowLayout.clockWidth),
                        TextStyle(dim: true))
        }
        guard let weather = row.status.weather else {
            switch row.status {
            case let .failed(error, _):
                let retry = error.kind == .cancelled ? "r to retry" : "\(error.shortReason) \(glyphs.emDash) r to retry"
                line.append("\(glyphs.warning) \(retry)", TextStyle(foreground: .red, dim: true))
            default:
                line.append("loading\(glyphs.ellipsis)", TextStyle(dim: true))
            }
            return line
        }
        let code = weather.current.weatherCode
        let icon = code.icon(ascii: ascii, isDay: weather.current.isDay ?? true)
        if layout.conditionWidth > 0 {
            line.append(TerminalText.fitted("\(icon) \(code.description)", to: layout.conditionWidth, ellipsis: glyphs.ellipsis) + " ")
        } else {
            line.append(icon + " ")
        }
        let temperature = Formatters.temperatureWithUnit(weather.current.temperature, row.units, degree: glyphs.degree)
        line.append(String(repeating: " ", count: max(0, RowLayout.temperatureWidth - TerminalText.width(temperature))))
        // Stale data (served from the cache while a refresh is due or failing) is dim and shows its age.
        let stale = now.timeIntervalSince(weather.fetchedAt) > RowLayout.staleAge
        line.append(temperature, stale ? TextStyle(dim: true) : TextStyle(foreground: tint(celsius: weather.current.temperature), bold: true))
        if layout.showsExtras {
            let current = weather.current
            let feels = current.apparentTemperature.map { Formatters.temperatureWithUnit($0, row.units, degree: glyphs.degree) } ?? glyphs.missing
            let arrow = current.windDirection.map { Formatters.windArrow(from: $0, ascii: ascii) + " " } ?? ""
            let wind = current.windSpeed == nil ? glyphs.missing : arrow + Formatters.wind(current.windSpeed, row.units, missing: glyphs.missing)
            let rain = weather.days(from: now).first?.precipitationProbability.map { "\($0)%" } ?? glyphs.missing
            line.append(TerminalText.fitted(feels, to: RowLayout.feelsWidth, alignRight: true) + "  ")
            line.append(TerminalText.fitted(wind, to: RowLayout.windWidth - 2, ellipsis: glyphs.ellipsis), TextStyle(dim: true))
            line.append(TerminalText.fitted(rain, to: RowLayout.rainWidth, alignRight: true), TextStyle(foreground: Color(33)))
        }
        let gap = stale ? " \(Formatters.compactAge(from: weather.fetchedAt, now: now)) " : "   "
        switch layout.strip {
        case let .days(count):
            line.append(gap, TextStyle(dim: true))
            for day in weather.days(from: now).prefix(count) {
                let highLow = Formatters.highLow(day.high, day.low, row.units, degree: "")
                // A seven-character "-12/-20" takes the space after the icon.
                let gap = highLow.count >= RowLayout.daySlotWidth - 1 ? "" : " "
                line.append((day.weatherCode?.icon(ascii: ascii) ?? glyphs.missing) + gap)
                line.append(TerminalText.fitted(highLow, to: RowLayout.daySlotWidth - 1 - gap.count, ellipsis: glyphs.ellipsis),
                            TextStyle(dim: true))
            }
        case let .hours(count):
            line.append(gap, TextStyle(dim: true))
            line.append(sparkline(weather.hours(from: now, count: count).map(\.temperature), glyphs: glyphs), TextStyle(foreground: .cyan))
        case .none:
            if stale { line.append(gap, TextStyle(dim: true)) }
        }
        if case let .failed(error, _) = row.status {
            line.append(" \(glyphs.warning) \(error.shortReason)", TextStyle(foreground: .red, dim: true))
        }
        return line
    }

    /// Blue when cold, through green, to red when hot: mid tones that read on light and dark themes.
    static func tint(celsius: Double) -> Color {
        switch celsius {
        case ..<(-10): return Color(33)
        case ..<0: return Color(39)
        case ..<10: return Color(37)
        case ..<20: return Color(34)
        case ..<28: return Color(172)
        default: return Color(160)
        }
    }

    /// One cell per value; a missing value is a blank cell.
    static func sparkline(_ values: [Double?], glyphs: Glyphs) -> String {
        let known = values.compactMap { $0 }
        guard let low = known.min(), let high = known.max() else { return String(repeating: " ", count: values.count) }
        let levels = glyphs.sparkline
        let span = max(high - low, 0.001)
        return values.map { value in
            value.map { levels[min(levels.count - 1, Int((($0 - low) / span) * Double(levels.count - 1) + 0.5))] } ?? " "
        }.joined()
    }
}
