import Catalog
import Foundation
import Models
import SkycastCore
import Terminal
import TextLayout
import Weather

/// One city in detail: the next 48 hours as a temperature chart (people would rather look than read),
/// rain chances under it, current details and the days ahead.
enum DetailView {
    static func render(city: City, status: AppState.WeatherStatus?, state: AppState, on screen: Screen, now: Date) {
        let size = screen.size
        let width = size.columns
        let capabilities = screen.capabilities
        let glyphs = capabilities.glyphs
        for row in 0..<size.rows { screen.fill(row: row, column: 0, width: width, style: .plain) }

        let latitude = String(format: "%.2f%@%@", abs(city.latitude), glyphs.degree, city.latitude >= 0 ? "N" : "S")
        let longitude = String(format: "%.2f%@%@", abs(city.longitude), glyphs.degree, city.longitude >= 0 ? "E" : "W")
        var title = StyledLine(" " + TerminalText.sanitized(city.fullName), TextStyle(bold: true))
        let dot = glyphs.separator
        var facts = " \(dot) \(latitude) \(longitude)"
        if let weather = status?.weather {
            facts += " \(dot) local \(Formatters.clock(now, utcOffsetSeconds: weather.zone.offsetSeconds(at: now))) \(dot) \(Formatters.age(from: weather.fetchedAt, now: now))"
        }
        title.append(facts, TextStyle(dim: true))
        let back = state.isDemo ? " DEMO DATA  Esc back " : " Esc back "
        screen.put(title, row: 0, column: 0, width: max(0, width - back.count))
        screen.put(StyledLine(back, TextStyle(dim: true)), row: 0, column: max(0, width - back.count), width: min(width, back.count))
        screen.put(StyledLine(String(repeating: glyphs.horizontalLine, count: width), TextStyle(dim: true)), row: 1, column: 0, width: width)

        guard let weather = status?.weather else {
            let text: String
            if case let .failed(error, _) = status { text = "  \(glyphs.warning) \(error.message) \(glyphs.emDash) r to retry" } else { text = "  loading\(glyphs.ellipsis)" }
            screen.put(StyledLine(text, TextStyle(dim: true)), row: 3, column: 0, width: width)
            return
        }
        let units = state.units
        let current = weather.current
        var now1 = StyledLine("  Now  ", TextStyle(bold: true))
        now1.append("\(current.weatherCode.icon(ascii: !capabilities.unicode, isDay: current.isDay ?? true)) \(current.weatherCode.description)  ")
        now1.append(Formatters.temperatureWithUnit(current.temperature, units, degree: glyphs.degree),
                    TextStyle(foreground: RowFormatter.tint(celsius: current.temperature), bold: true))
        now1.append(" (feels \(Formatters.temperature(current.apparentTemperature, units, degree: glyphs.degree, missing: glyphs.missing)))  ")
        let arrow = current.windDirection.map { Formatters.windArrow(from: $0, ascii: !capabilities.unicode) + " " } ?? ""
        now1.append("wind \(current.windSpeed == nil ? "" : arrow)\(Formatters.wind(current.windSpeed, units, missing: glyphs.missing))  "
                    + "humidity \(Formatters.percent(current.humidity, missing: glyphs.missing))", TextStyle(dim: true))
        screen.put(now1, row: 2, column: 0, width: width)
        let zone = weather.zone
        if let sun = SunTimes.times(latitude: city.latitude, longitude: city.longitude, on: now.addingTimeInterval(Double(zone.offsetSeconds(at: now)))) {
            let rise = Formatters.clock(sun.rise, utcOffsetSeconds: zone.offsetSeconds(at: sun.rise))
            let set = Formatters.clock(sun.set, utcOffsetSeconds: zone.offsetSeconds(at: sun.set))
            screen.put(StyledLine("       sunrise \(rise)  sunset \(set)", TextStyle(dim: true)), row: 3, column: 0, width: width)
        }

        // The chart widens with the window: an hour a column, up to the week the forecast holds.
        let hours = Array(weather.hours(from: now, count: min(weather.hourly.count, max(8, width - 16))))
        let chartHeight = max(3, min(10, size.rows - 14))
        var row = 5
        if !hours.isEmpty {
            row = drawChart(hours, top: 5, height: chartHeight, units: units, weather: weather, on: screen, capabilities: capabilities)
        }
        row += 1
        for day in weather.days(from: now).prefix(max(0, size.rows - row - 1)) {
            var line = StyledLine("  \(day.date.weekdayAbbreviation) \(String(format: "%02d", day.date.day))  ")
            let condition = day.weatherCode.map { "\($0.icon(ascii: !capabilities.unicode)) \($0.description)" } ?? glyphs.missing
            line.append(TerminalText.fitted(condition, to: 20))
            // Highs right-aligned, lows left: the slashes line up down the days.
            line.append(" " + TerminalText.fitted(Formatters.temperature(day.high, units, degree: glyphs.degree), to: 4, alignRight: true) + "/"
                        + TerminalText.fitted(Formatters.temperature(day.low, units, degree: glyphs.degree), to: 4), TextStyle(bold: true))
            line.append("  rain \(Formatters.percent(day.precipitationProbability, missing: glyphs.missing))", TextStyle(dim: true))
            screen.put(line, row: row, column: 0, width: width)
            row += 1
        }
        if weather.isDemo {
            screen.put(StyledLine(" Simulated demo data, not a forecast.", TextStyle(foreground: .yellow)), row: size.rows - 1, column: 0, width: width)
        } else {
            screen.put(StyledLine(" " + weather.provider.attribution, TextStyle(dim: true)), row: size.rows - 1, column: 0, width: width)
        }
    }

    /// An area chart of the temperatures, one column per hour, in eighths of a cell; returns the row after it.
    static func drawChart(_ hours: [HourlyForecast], top: Int, height: Int, units: Units, weather: CityWeather,
                          on screen: Screen, capabilities: TerminalCapabilities) -> Int {
        let glyphs = capabilities.glyphs
        // A missing temperature leaves its column empty.
        let values = hours.map { $0.temperature.map(units.temperature) }
        let known = values.compactMap { $0 }
        // The axis runs between multiples of a round step, labelled at each step.
        let span = max(1, (known.max() ?? 1) - (known.min() ?? 0))
        let labels = max(1, height / 2)
        let step = [1.0, 2, 5, 10, 20, 50].first { $0 * Double(labels) >= span } ?? 100
        let low = ((known.min() ?? 0) / step).rounded(.down) * step
        let high = max(low + step, ((known.max() ?? 1) / step).rounded(.up) * step)
        let axisWidth = 6
        for chartRow in 0..<height {
            let rowTop = high - (high - low) * Double(chartRow) / Double(height)
            let rowBottom = high - (high - low) * Double(chartRow + 1) / Double(height)
            // The row whose band holds a multiple of the step carries its label.
            let tick = (rowTop / step).rounded(.down) * step
            let label = tick > rowBottom || chartRow == 0
                ? TerminalText.fitted("\(Int(tick.rounded()))\(glyphs.degree)", to: axisWidth - 1, alignRight: true)
                : String(repeating: " ", count: axisWidth - 1)
            var line = StyledLine(label + glyphs.verticalLine, TextStyle(dim: true))
            var cells = ""
            for value in values {
                guard let value else {
                    cells += " "
                    continue
                }
                let eighths = Int(((value - low) / (high - low) * Double(height * 8)).rounded())
                let fill = min(8, max(0, eighths - (height - 1 - chartRow) * 8))
                if capabilities.unicode {
                    cells += fill == 0 ? " " : fill == 8 ? "█" : glyphs.sparkline[fill - 1]
                } else {
                    cells += fill >= 4 ? "#" : fill > 0 ? "." : " "
                }
            }
            line.append(cells, TextStyle(foreground: Color(39)))
            screen.put(line, row: top + chartRow, column: 0, width: screen.size.columns)
        }
        var axis = String(repeating: " ", count: axisWidth)
        var column = 0
        while column < hours.count {
            let time = hours[column].time
            let hour = Int(((time.timeIntervalSince1970 + Double(weather.zone.offsetSeconds(at: time))) / 3600).rounded(.down)) % 24
            if hour % 6 == 0 && column + 2 <= hours.count {
                axis += String(format: "%02d", hour)
                column += 2
            } else {
                axis += " "
                column += 1
            }
        }
        axis += "  (\(hours.count) h)"
        screen.put(StyledLine(axis, TextStyle(dim: true)), row: top + height, column: 0, width: screen.size.columns)
        var rain = StyledLine(TerminalText.fitted(" rain", to: axisWidth), TextStyle(dim: true))
        rain.append(hours.map { hour -> String in
            guard let chance = hour.precipitationProbability else { return " " }
            switch chance {
            case ..<10: return " "
            case ..<30: return glyphs.shades[0]
            case ..<60: return glyphs.shades[1]
            case ..<85: return glyphs.shades[2]
            default: return glyphs.shades[3]
            }
        }.joined(), TextStyle(foreground: Color(33)))
        screen.put(rain, row: top + height + 1, column: 0, width: screen.size.columns)
        let shades = glyphs.shades
        var legend = StyledLine(String(repeating: " ", count: axisWidth), TextStyle(dim: true))
        for (shade, range) in zip(shades, ["10–30 %", "30–60 %", "60–85 %", "85 %+"]) {
            legend.append(shade, TextStyle(foreground: Color(33)))
            legend.append(" chance of rain \(range)  ".replacingOccurrences(of: "chance of rain ", with: shade == shades[0] ? "rain " : ""),
                          TextStyle(dim: true))
        }
        screen.put(legend, row: top + height + 2, column: 0, width: screen.size.columns)
        return top + height + 3
    }
}
