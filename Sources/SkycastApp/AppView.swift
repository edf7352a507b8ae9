import Catalog
import DiffableSnapshot
import Foundation
import Models
import SkycastCore
import Terminal
import TextLayout
import Weather

/// Draws an `AppState` on a `Screen`. It keeps only what animation needs between frames (the table's
/// last snapshot and fades); everything it shows comes from the state passed in.
public final class AppView {

    /// What the table's cell provider reads: the rows of the frame being drawn.
    private final class Rows {
        var byID: [Int: CityRow] = [:]
        var layout = RowLayout(width: 80)
        var capabilities: TerminalCapabilities
        var now = Date(timeIntervalSince1970: 0)

        init(capabilities: TerminalCapabilities) { self.capabilities = capabilities }

        func line(_ id: Int) -> StyledLine {
            guard let row = byID[id] else { return StyledLine() }
            return RowFormatter.line(for: row, layout: layout, capabilities: capabilities, now: now)
        }
    }

    private let table: TableView<AppState.Section, Int>
    private let dataSource: DiffableDataSource<AppState.Section, Int>
    private let rows: Rows
    private var appliedHighlight = 0
    /// The first snapshot of a run is its starting content, not news: it does not fade in.
    private var isFirstApply = true
    /// The changes the last frame animated.
    private(set) var lastDiff = SnapshotDiff<AppState.Section, Int>()

    private var rowLayout: RowLayout { rows.layout }
    private var capabilities: TerminalCapabilities { rows.capabilities }
    private var now: Date { rows.now }

    public init(capabilities: TerminalCapabilities) {
        let rows = Rows(capabilities: capabilities)
        self.rows = rows
        table = TableView<AppState.Section, Int>(cellProvider: { id, _ in rows.line(id) })
        dataSource = DiffableDataSource(tableView: table, cellProvider: { id, _ in rows.line(id) },
                                        sectionHeaderProvider: { $0.title })
    }

    /// Whether a fade or flash is playing: the loop then draws at animation rate.
    public func isAnimating(at now: Date) -> Bool {
        table.isAnimating(now: now.timeIntervalSinceReferenceDate)
    }

    /// Brings the table up to date with `state` (computing the diff that animates) and draws a frame.
    public func render(_ state: AppState, on screen: Screen, now: Date) {
        rows.now = now
        rows.capabilities = screen.capabilities
        let size = screen.size
        let layout = ScreenLayout(size: size)
        let time = now.timeIntervalSinceReferenceDate
        update(from: state, time: time, screenWidth: size.columns)
        guard !layout.isTooSmall else {
            drawTooSmall(on: screen, size: size)
            return
        }
        screen.setCursor(row: 0, column: 0, visible: false)
        if case let .details(id) = state.mode, let city = state.city(id: id) {
            DetailView.render(city: city, status: state.weather[id], state: state, on: screen, now: now)
            screen.flush()
            return
        }
        drawTitle(state, on: screen, width: size.columns)
        let rule = StyledLine(String(repeating: capabilities.glyphs.horizontalLine, count: size.columns), TextStyle(dim: true))
        screen.put(rule, row: layout.topRuleRow, column: 0, width: size.columns)
        if state.allCities.isEmpty {
            drawEmptyState(on: screen, top: layout.columnHeaderRow, height: layout.bodyHeight + 1, width: size.columns)
        } else {
            table.render(on: screen, top: layout.columnHeaderRow, width: size.columns, height: layout.bodyHeight + 1,
                         header: RowFormatter.header(rowLayout, glyphs: capabilities.glyphs, days: stripDays(state)), state: state.table, now: time)
        }
        screen.put(rule, row: layout.bottomRuleRow, column: 0, width: size.columns)
        drawStatusBar(state, on: screen, row: layout.statusRow, width: size.columns)
        switch state.mode {
        case let .search(search): drawSearch(search, on: screen, size: size)
        case let .help(scroll): drawHelp(scroll: scroll, on: screen, size: size)
        case let .confirmRemove(id):
            let name = state.city(id: id)?.name ?? "city"
            screen.put(StyledLine(" Remove \(TerminalText.sanitized(name)) and its bookmark? y / n ", TextStyle(foreground: .black, background: .yellow, bold: true)),
                       row: size.rows - 1, column: 0, width: size.columns)
        default: break
        }
        screen.flush()
    }

    private func update(from state: AppState, time: Double, screenWidth: Int) {
        let names = City.displayNames(state.allCities)
        let newLayout = RowLayout(width: screenWidth, longestName: names.values.map { TerminalText.width(TerminalText.sanitized($0)) }.max() ?? 0)
        let layoutChanged = newLayout != rowLayout
        rows.layout = newLayout
        var snapshot = DiffableSnapshot<AppState.Section, Int>()
        try! snapshot.appendSections([.bookmarks, .added])  // two fresh, distinct sections cannot fail
        for line in state.tableLines {
            // The state's lines hold each city once, in its section: appending cannot fail.
            if case let .item(id) = line { try? snapshot.appendItems([id], toSection: state.isBookmarked(id) ? .bookmarks : .added) }
        }
        var newRows: [Int: CityRow] = [:]
        for city in state.bookmarks {
            newRows[city.id] = CityRow(city: city, name: names[city.id] ?? city.shortName, bookmarked: true,
                                       status: state.weather[city.id] ?? .loading, units: state.units)
        }
        for city in state.added {
            newRows[city.id] = CityRow(city: city, name: names[city.id] ?? city.shortName, bookmarked: false,
                                       status: state.weather[city.id] ?? .loading, units: state.units)
        }
        let oldRows = rows.byID
        rows.byID = newRows
        // Animation frames redraw an unchanged state: nothing to diff then.
        if isFirstApply || layoutChanged || newRows != oldRows || snapshot != dataSource.snapshot {
            lastDiff = dataSource.apply(snapshot, animatingDifferences: capabilities.animation && !isFirstApply, now: time,
                                        isContentEqual: { layoutChanged || oldRows[$0] == newRows[$0] })
            isFirstApply = false
        }
        if let request = state.highlightRequest, request.serial != appliedHighlight {
            appliedHighlight = request.serial
            table.highlight(request.cityID, now: time)
        }
    }

    /// The days the strip shows, by the first city with weather: the header names them.
    private func stripDays(_ state: AppState) -> [LocalDate] {
        guard let weather = state.allCities.lazy.compactMap({ state.weather[$0.id]?.weather }).first else { return [] }
        return weather.days(from: now).map(\.date)
    }

    private func drawTooSmall(on screen: Screen, size: TerminalSize) {
        guard size.rows > 0, size.columns > 0 else { return }
        for row in 0..<size.rows { screen.fill(row: row, column: 0, width: size.columns, style: .plain) }
        let message = "terminal too small (need \(ScreenLayout.minimumSize.columns)×\(ScreenLayout.minimumSize.rows))"
        screen.put(TerminalText.truncated(capabilities.unicode ? message : message.replacingOccurrences(of: "×", with: "x"),
                                          to: size.columns, ellipsis: ""),
                   row: 0, column: 0, style: TextStyle(bold: true))
        screen.flush()
    }

    private func drawTitle(_ state: AppState, on screen: Screen, width: Int) {
        var title = StyledLine()
        title.append(" skycast", TextStyle(bold: true))
        let dot = capabilities.glyphs.separator
        let units = Formatters.unitSymbol(state.units, degree: capabilities.glyphs.degree)
        title.append(" \(dot) \(state.provider.displayName) \(dot) \(units) \(dot) \(Formatters.age(from: state.lastUpdated, now: now))",
                     TextStyle(dim: true))
        if state.sortOrder != .yours || state.sortReversed {
            let order = state.sortOrder == .yours ? "your order" : "by \(state.sortOrder.rawValue)"
            title.append(" \(dot) \(order)\(state.sortReversed ? ", reversed" : "")", TextStyle(dim: true))
        }
        if state.effectiveRefreshInterval > state.refreshInterval {
            // Raised to stay within the service's daily quota: say so.
            title.append(" \(dot) refresh every \(Int(state.effectiveRefreshInterval / 60)) min", TextStyle(dim: true))
        }
        var right = StyledLine()
        if !state.pending.isEmpty {
            let done = max(0, state.refreshTotal - state.pending.count)
            right.append("\(capabilities.glyphs.refresh) \(done) of \(state.refreshTotal) ", TextStyle(foreground: .cyan))
        }
        if state.isDemo { right.append(" DEMO DATA ", TextStyle(foreground: .black, background: .yellow, bold: true, reverse: capabilities.colors == .none)) }
        let rightWidth = TerminalText.width(right.text)
        screen.put(title, row: 0, column: 0, width: max(0, width - rightWidth))
        if rightWidth > 0 { screen.put(right, row: 0, column: width - rightWidth, width: rightWidth) }
    }

    private func drawEmptyState(on screen: Screen, top: Int, height: Int, width: Int) {
        for row in top..<(top + height) { screen.fill(row: row, column: 0, width: width, style: .plain) }
        let lines = ["No cities yet.", "Press / and type a city name to add one,", "then b to bookmark it so it stays."]
        let start = top + max(0, height / 2 - lines.count)
        for (offset, text) in lines.enumerated() where start + offset < top + height {
            let x = max(0, (width - TerminalText.width(text)) / 2)
            screen.put(text, row: start + offset, column: x, style: offset == 0 ? TextStyle(bold: true) : TextStyle(dim: true))
        }
    }

    private func drawStatusBar(_ state: AppState, on screen: Screen, row: Int, width: Int) {
        let attribution = state.provider.attribution + " "
        var left = StyledLine()
        if let status = state.status {
            left.append(" " + TerminalText.sanitized(status.text), status.isError ? TextStyle(foreground: .red, bold: true) : TextStyle(bold: true))
        } else {
            left.append(keyHints(units: state.units), TextStyle(dim: true))
        }
        let rightWidth = TerminalText.width(attribution)
        let leftWidth = TerminalText.width(left.text)
        if leftWidth + rightWidth + 2 <= width {
            screen.put(left, row: row, column: 0, width: width - rightWidth)
            screen.put(StyledLine(attribution, TextStyle(dim: true)), row: row, column: width - rightWidth, width: rightWidth)
        } else {
            screen.put(left, row: row, column: 0, width: width)
        }
    }

    /// The part of the query the prompt shows in `room` cells, and the cursor's column in it: it
    /// scrolls sideways to keep the cursor in view, and never splits a wide character.
    static func promptWindow(_ search: SearchState, room: Int) -> (text: String, cursor: Int) {
        let characters = Array(search.query).map { TerminalText.sanitized(String($0)) }
        let cursor = min(max(0, search.cursor), characters.count)
        let widths = characters.map(TerminalText.width)
        // From the cursor back, as much as fits with the cursor's own cell.
        var start = cursor
        var used = 0
        while start > 0, used + widths[start - 1] <= room - 1 {
            start -= 1
            used += widths[start]
        }
        var end = cursor
        var total = used
        while end < characters.count, total + widths[end] <= room {
            total += widths[end]
            end += 1
        }
        return (characters[start..<end].joined(), used)
    }

    /// " / search  b bookmark  ↵ details …": the keymap's hints.
    private func keyHints(units: Units) -> String {
        Keymap.entries.compactMap(\.hint).map { hint -> String in
            switch hint {
            case let .text(key, word): return " " + (capabilities.unicode ? key : Keymap.ascii(key)) + " " + word
            case let .otherUnits(key): return " \(key) " + Formatters.unitSymbol(units.toggled, degree: capabilities.glyphs.degree)
            }
        }.joined(separator: " ")
    }

    private func drawSearch(_ search: SearchState, on screen: Screen, size: TerminalSize) {
        let glyphs = capabilities.glyphs
        let listHeight = min(search.suggestions.count + (search.note == nil ? 0 : 1), max(0, size.rows - 6), App.suggestionLimit + 4)
        let promptRow = size.rows - 2 - listHeight
        let width = size.columns
        screen.put(StyledLine(String(repeating: glyphs.horizontalLine, count: width), TextStyle(dim: true)), row: promptRow - 1, column: 0, width: width)
        var prompt = StyledLine(" / ", TextStyle(bold: true))
        let (shown, cursorColumn) = Self.promptWindow(search, room: max(1, width - 4))
        prompt.append(shown)
        screen.put(prompt, row: promptRow, column: 0, width: width)
        screen.setCursor(row: promptRow, column: min(width - 1, 3 + cursorColumn), visible: true)
        var row = promptRow + 1
        if let note = search.note {
            screen.put(StyledLine("   " + note, TextStyle(dim: true)), row: row, column: 0, width: width)
            row += 1
        }
        for (index, match) in search.suggestions.enumerated() where row < size.rows - 1 {
            let city = match.city
            let population = city.population > 0 ? Formatters.grouped(city.population) : (match.kind == .online ? "online" : "")
            let nameWidth = max(10, width - 16)
            let text = "   " + TerminalText.fitted(TerminalText.sanitized(city.qualifiedName), to: nameWidth - 3, ellipsis: glyphs.ellipsis)
                + TerminalText.fitted(population, to: 12, alignRight: true) + " "
            screen.put(StyledLine(text, index == search.chosen ? TextStyle(reverse: true) : .plain), row: row, column: 0, width: width)
            row += 1
        }
        let arrows = capabilities.unicode ? "↑↓" : "Up/Down"
        var hint: String
        switch search.online {
        case .idle: hint = " Tab: search online   \(arrows) choose   Enter add   Esc cancel"
        case .searching: hint = " searching online\(glyphs.ellipsis)"
        case let .found(count): hint = " online: \(count) found   \(arrows) choose   Enter add   Esc cancel"
        case let .failed(message): hint = " online search failed: \(message)"
        }
        let failed = { if case .failed = search.online { return true }; return false }()
        screen.put(StyledLine(hint, failed ? TextStyle(foreground: .red) : TextStyle(dim: true)), row: size.rows - 1, column: 0, width: width)
    }

    private func drawHelp(scroll: Int, on screen: Screen, size: TerminalSize) {
        var lines: [String] = Keymap.entries.map { entry in
            let keys = capabilities.unicode ? entry.label : Keymap.ascii(entry.label)
            return TerminalText.fitted(keys, to: 18) + (capabilities.unicode ? entry.summary : Keymap.ascii(entry.summary))
        }
        let legend = WeatherCode.legend(ascii: !capabilities.unicode).map { "\($0.icon) \($0.meaning)" }
        let half = (legend.count + 1) / 2
        lines += ["", legend.prefix(half).joined(separator: "  "), legend.dropFirst(half).joined(separator: "  ")]
        let body = min(lines.count, ScreenLayout(size: size).helpLines)
        let first = min(max(0, scroll), lines.count - body)
        let width = min(size.columns - 2, 56)
        let height = body + 3
        let left = (size.columns - width) / 2
        let top = max(1, (size.rows - height) / 2)
        let frame = capabilities.colors == .none ? TextStyle(reverse: true) : TextStyle(foreground: .white, background: Color(24))
        for row in top..<(top + height) { screen.fill(row: row, column: left, width: width, style: frame) }
        screen.put(StyledLine(" Keys", frame.merged(with: TextStyle(bold: true))), row: top, column: left, width: width, fillStyle: frame)
        for (offset, text) in lines[first..<(first + body)].enumerated() {
            screen.put(StyledLine("  " + text, frame), row: top + 2 + offset, column: left, width: width, fillStyle: frame)
        }
        let more = first + body < lines.count
        let arrows = capabilities.unicode ? "↓↑" : "Down/Up"
        let hint = more || first > 0 ? "  \(arrows) scroll (\(first + body) of \(lines.count))  other keys close" : "  any key closes"
        screen.put(StyledLine(hint, frame.merged(with: TextStyle(dim: true))), row: top + height - 1, column: left, width: width, fillStyle: frame)
    }
}
