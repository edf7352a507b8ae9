import Catalog
import DiffableSnapshot
import GoldenFiles
import Models
import SkycastCore
import Terminal
import TestFixtures
import TextLayout
import Weather
import XCTest
@testable import SkycastApp

final class ViewTests: XCTestCase {
    static let colour = TerminalCapabilities(colors: .full, unicode: true, animation: true)

    func render(_ state: AppState, size: TerminalSize, capabilities: TerminalCapabilities = ViewTests.colour,
                view: AppView? = nil, at now: Date = Fixtures.now) -> TestScreen {
        let screen = TestScreen(size: size, capabilities: capabilities)
        (view ?? AppView(capabilities: capabilities)).render(state, on: screen, now: now)
        return screen
    }

    func assertGolden(_ screen: TestScreen, _ name: String, styles: Bool = false, line: UInt = #line) {
        let text = styles ? screen.text + "\n" + screen.styleMap : screen.text
        if let mismatch = Golden.mismatch(text, name: name, testFile: #filePath) { XCTFail(mismatch, line: line) }
    }

    func mainState(size: TerminalSize) -> AppState {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo], size: size)
        state.added = [Fixtures.saoPaulo, Fixtures.zurich, Fixtures.hostile]
        state.weather[Fixtures.saoPaulo.id] = .loaded(Fixtures.weather(Fixtures.saoPaulo))
        state.weather[Fixtures.zurich.id] = .loading
        state.weather[Fixtures.hostile.id] = .failed(WeatherError(.timeout(seconds: 10, attempts: 1), city: Fixtures.hostile), previous: nil)
        state.table.selected = Fixtures.tokyo.id
        return state
    }

    func testTableAt80x24() {
        let size = TerminalSize(rows: 24, columns: 80)
        let screen = render(mainState(size: size), size: size)
        assertGolden(screen, "table-80x24", styles: true)
        XCTAssertTrue(screen.line(0).contains("DEMO DATA"))
        XCTAssertTrue(screen.line(3).hasPrefix(" ★  Seoul, KR"))
        XCTAssertTrue(screen.text.contains("loading…"))
        XCTAssertTrue(screen.text.contains("⚠ timeout — r to retry"))
        XCTAssertTrue(screen.text.contains("EvilTown"))
        XCTAssertFalse(screen.text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    }

    func testNarrowTerminalsDropTheStripThenTheWords() {
        for (size, name) in [(TerminalSize(rows: 12, columns: 40), "table-40x12"), (TerminalSize(rows: 16, columns: 64), "table-64x16")] {
            let screen = render(mainState(size: size), size: size)
            assertGolden(screen, name)
            XCTAssertTrue(screen.text.contains("Seoul"), name)
        }
        let tiny = render(mainState(size: TerminalSize(rows: 6, columns: 30)), size: TerminalSize(rows: 6, columns: 30))
        XCTAssertEqual(tiny.line(0), "terminal too small (need 40×8)")
        let one = render(mainState(size: TerminalSize(rows: 1, columns: 1)), size: TerminalSize(rows: 1, columns: 1))
        XCTAssertEqual(one.line(0), "t")
    }

    func testAsciiWithoutColour() {
        let size = TerminalSize(rows: 12, columns: 80)
        let capabilities = TerminalCapabilities(colors: .none, unicode: false, animation: false)
        let screen = render(mainState(size: size), size: size, capabilities: capabilities)
        assertGolden(screen, "table-80x12-ascii-nocolor", styles: true)
        XCTAssertTrue(screen.text.unicodeScalars.allSatisfy { $0.isASCII || $0.properties.isAlphabetic },
                      "only ASCII besides the letters of city names")
    }

    func testAddedRowFadesAndNothingElseMoves() throws {
        let size = TerminalSize(rows: 10, columns: 80)
        let view = AppView(capabilities: Self.colour)
        var state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo], size: size)
        _ = render(state, size: size, view: view)
        XCTAssertFalse(view.isAnimating(at: Fixtures.now), "the starting rows do not fade in")
        _ = App.add(Fixtures.zurich, state: &state)
        var frames: [String] = []
        for offset in [0.0, 0.4, 0.9] {
            let screen = render(state, size: size, view: view, at: Fixtures.now.addingTimeInterval(offset))
            frames.append("t=\(offset)\n" + screen.styleMap)
        }
        XCTAssertFalse(view.isAnimating(at: Fixtures.now.addingTimeInterval(0.9)))
        if let mismatch = Golden.mismatch(frames.joined(separator: "\n"), name: "add-fade", testFile: #filePath) { XCTFail(mismatch) }
    }

    func testBookmarkingIsAMoveAndTheSelectionStays() {
        let size = TerminalSize(rows: 12, columns: 80)
        let view = AppView(capabilities: Self.colour)
        var state = Fixtures.state(bookmarks: [Fixtures.seoul], size: size)
        state.added = [Fixtures.tokyo, Fixtures.zurich]
        state.weather[Fixtures.tokyo.id] = .loaded(Fixtures.weather(Fixtures.tokyo))
        state.weather[Fixtures.zurich.id] = .loaded(Fixtures.weather(Fixtures.zurich))
        state.table.selected = Fixtures.zurich.id
        _ = render(state, size: size, view: view)
        _ = App.update(&state, with: .key(.character("b")), now: Fixtures.now)
        let screen = render(state, size: size, view: view, at: Fixtures.now.addingTimeInterval(1))
        XCTAssertEqual(view.lastDiff.movedItems, [Move(from: ItemPath(section: 1, item: 1), to: ItemPath(section: 0, item: 1))])
        XCTAssertTrue(view.lastDiff.insertedItems.isEmpty && view.lastDiff.deletedItems.isEmpty)
        XCTAssertEqual(view.lastDiff.reconfiguredItems, [ItemPath(section: 0, item: 1)], "its star changed")
        XCTAssertTrue(screen.line(4).hasPrefix(" ★  Zürich, CH"))
        XCTAssertEqual(screen.cells[4][10].style.background, Color(39), "the moved row is marked a moment")
        let later = render(state, size: size, view: view, at: Fixtures.now.addingTimeInterval(1.7))
        XCTAssertTrue(later.cells[4][10].style.reverse, "then the selection shows, still on Zürich")
    }

    func testStaleDataShowsItsAge() {
        let size = TerminalSize(rows: 10, columns: 100)
        var state = Fixtures.state(bookmarks: [Fixtures.seoul], size: size)
        var old = Fixtures.weather(Fixtures.seoul)
        old.fetchedAt = Fixtures.now.addingTimeInterval(-2 * 3600)
        state.weather[Fixtures.seoul.id] = .loaded(old)
        let screen = render(state, size: size)
        let line = screen.line(3)
        XCTAssertTrue(line.contains("°C 2h ☂"), line)
        let column = line.distance(from: line.startIndex, to: line.firstRange(of: "°C 2h")!.lowerBound)
        XCTAssertTrue(screen.cells[3][column].style.dim, "the stale temperature is dim")
        XCTAssertEqual(Formatters.compactAge(from: Fixtures.now.addingTimeInterval(-35 * 60), now: Fixtures.now), "35m")
        XCTAssertEqual(Formatters.compactAge(from: Fixtures.now.addingTimeInterval(-3 * 86_400), now: Fixtures.now), "3d")
    }

    func testSearchPromptHelpDetailsAndEmptyState() throws {
        let size = TerminalSize(rows: 24, columns: 80)
        var state = mainState(size: size)
        _ = App.update(&state, with: .catalogLoaded(Fixtures.catalog), now: Fixtures.now)
        for key in [Key.character("/")] + "reyk".map({ Key.character($0) }) { _ = App.update(&state, with: .key(key), now: Fixtures.now) }
        let search = render(state, size: size)
        assertGolden(search, "search-prompt")
        XCTAssertEqual(search.cursor?.column, 7)

        state.mode = .help(scroll: 0)
        assertGolden(render(state, size: size), "help")

        state.mode = .details(cityID: Fixtures.seoul.id)
        let details = render(state, size: size)
        assertGolden(details, "details-seoul")
        XCTAssertEqual(details.line(14).filter { $0 != " " }.count > 60, true, "the chart fills the width, an hour a column")

        let empty = render(Fixtures.state(bookmarks: [], size: size), size: size)
        assertGolden(empty, "empty")
        XCTAssertTrue(empty.text.contains("Press / and type a city name"))
    }

    func testTheTitleSaysWhenTheRefreshIntervalWasRaised() {
        let size = TerminalSize(rows: 24, columns: 120)
        let cities = (0..<50).map { Fixtures.city(7000 + $0, "City \($0)", "XX") }
        var state = AppState(provider: .openMeteo, units: .metric, bookmarks: cities, size: size)
        XCTAssertTrue(render(state, size: size).line(0).contains("refresh every 15 min"), render(state, size: size).line(0))
        state.bookmarks = Array(cities.prefix(6))
        XCTAssertFalse(render(state, size: size).line(0).contains("refresh every"), "as configured: nothing to say")
    }

    func testMissingValuesShowADash() throws {
        let size = TerminalSize(rows: 24, columns: 80)
        var weather = Fixtures.weather(Fixtures.seoul)
        weather.current.apparentTemperature = nil
        weather.current.humidity = nil
        weather.current.windSpeed = nil
        for index in weather.daily.indices {
            weather.daily[index].weatherCode = nil
            weather.daily[index].precipitationProbability = nil
        }
        var state = Fixtures.state(bookmarks: [Fixtures.seoul], size: size)
        state.weather[Fixtures.seoul.id] = .loaded(weather)
        let table = render(state, size: size)
        XCTAssertTrue(table.line(3).contains("– "), "a day without a condition shows a dash, not a sun: \(table.line(3))")
        state.mode = .details(cityID: Fixtures.seoul.id)
        let details = render(state, size: size)
        XCTAssertTrue(details.text.contains("(feels –)"), details.text)
        XCTAssertTrue(details.text.contains("wind –  humidity –"), details.text)
        XCTAssertTrue(details.text.contains("rain –"), details.text)
        XCTAssertFalse(details.text.contains("rain 0 %") || details.text.contains("humidity 0"), "no invented zero")
    }

    func testHelpScrollsWhenItDoesNotFitAndExplainsTheIcons() {
        let size = TerminalSize(rows: 12, columns: 50)
        var state = Fixtures.state(bookmarks: [Fixtures.seoul], size: size)
        _ = App.update(&state, with: .key(.character("?")), now: Fixtures.now)
        var screen = render(state, size: size)
        XCTAssertTrue(screen.text.contains("j k ↓ ↑"), screen.text)
        XCTAssertTrue(screen.text.contains("scroll (7 of \(Keymap.helpLineCount))"), screen.text)
        for _ in 0..<40 { _ = App.update(&state, with: .key(.down), now: Fixtures.now) }
        screen = render(state, size: size)
        XCTAssertTrue(screen.text.contains("↯ thunder"), "the last line is reachable: \(screen.text)")
        XCTAssertFalse(screen.text.contains("j k ↓ ↑"))
        _ = App.update(&state, with: .key(.character("x")), now: Fixtures.now)
        XCTAssertEqual(state.mode, .table, "any other key closes")
        let ascii = render({ var shown = state; shown.mode = .help(scroll: 40); return shown }(), size: TerminalSize(rows: 30, columns: 80),
                           capabilities: TerminalCapabilities(colors: .none, unicode: false, animation: false))
        XCTAssertTrue(ascii.text.contains(") clear night") && ascii.text.contains("C cloudy") && ascii.text.contains("c partly cloudy"), ascii.text)
        let icons = WeatherCode.legend(ascii: true).map(\.icon)
        XCTAssertEqual(Set(icons).count, icons.count, "every ASCII icon means one thing")
    }

    func testWideRowsShowEachCitysLocalTime() {
        let size = TerminalSize(rows: 10, columns: 100)
        let state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.saoPaulo], size: size)
        let screen = render(state, size: size)
        XCTAssertTrue(screen.line(2).contains("CITY") && screen.line(2).contains("TIME") && screen.line(2).contains("Today"), screen.line(2))
        // 12:00 UTC is 21:00 in Seoul and 09:00 in São Paulo.
        XCTAssertTrue(screen.line(3).contains("Seoul, KR") && screen.line(3).contains("21:00"), screen.line(3))
        XCTAssertTrue(screen.line(4).contains("09:00"), screen.line(4))
        XCTAssertFalse(render(state, size: TerminalSize(rows: 10, columns: 80)).line(3).contains("21:00"), "no room for it at 80")
    }

    func testALongWideQueryKeepsItsEndAndTheCursorInView() {
        var search = SearchState()
        search.query = String(repeating: "東京都", count: 10) + "x"
        search.cursor = search.query.count
        var window = AppView.promptWindow(search, room: 36)
        XCTAssertTrue(window.text.hasSuffix("x"), window.text)
        XCTAssertLessThanOrEqual(TerminalText.width(window.text), 36)
        XCTAssertEqual(window.cursor, TerminalText.width(window.text), "the cursor after the last character")
        search.cursor = 2
        window = AppView.promptWindow(search, room: 36)
        XCTAssertTrue(window.text.hasPrefix("東京都"), window.text)
        XCTAssertEqual(window.cursor, 4, "two wide characters before it")
        let size = TerminalSize(rows: 12, columns: 40)
        var state = Fixtures.state(bookmarks: [Fixtures.seoul], size: size)
        search.cursor = search.query.count
        state.mode = .search(search)
        let screen = render(state, size: size)
        XCTAssertEqual(screen.cursor?.column, 3 + TerminalText.width(AppView.promptWindow(search, room: 36).text))
    }

    func testVeryWideRowsShowMoreOfTheWeather() {
        let size = TerminalSize(rows: 8, columns: 150)
        let state = Fixtures.state(bookmarks: [Fixtures.seoul], size: size)
        let screen = render(state, size: size)
        for column in ["TIME", "FEELS", "WIND", "RAIN", "Today"] { XCTAssertTrue(screen.line(2).contains(column), "\(column): \(screen.line(2))") }
        let weather = Fixtures.weather(Fixtures.seoul)
        let row = screen.line(3)
        XCTAssertTrue(row.contains(Formatters.temperatureWithUnit(weather.current.apparentTemperature!, .metric, degree: "°")), row)
        XCTAssertTrue(row.contains("km/h") && row.contains(Formatters.windArrow(from: weather.current.windDirection!, ascii: false)), row)
        XCTAssertTrue(["Today", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"].allSatisfy(screen.line(2).contains), "seven days: \(screen.line(2))")
        XCTAssertFalse(render(state, size: TerminalSize(rows: 8, columns: 120)).line(2).contains("FEELS"))
    }

    func testDetailsShowTheSunTheWindAndAlignedDaysAndStepThroughCities() {
        let size = TerminalSize(rows: 30, columns: 100)
        var state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo], size: size)
        state.mode = .details(cityID: Fixtures.seoul.id)
        let screen = render(state, size: size)
        XCTAssertTrue(screen.text.contains("sunrise 07:") && screen.text.contains("sunset 17:"), "Seoul's late-November day: \(screen.line(2))")
        XCTAssertTrue(screen.text.contains("rain 10–30 %"), "the rain strip has a legend")
        XCTAssertTrue(screen.line(0).contains("Seoul, Seoul, KR"), "details always name the state: \(screen.line(0))")
        let slashes = (0..<30).map(screen.line).filter { $0.contains("  rain ") && $0.contains("/") }.compactMap { $0.firstIndex(of: "/")?.utf16Offset(in: $0) }
        XCTAssertGreaterThan(slashes.count, 3)
        XCTAssertEqual(Set(slashes).count, 1, "the days' high/low line up")
        _ = App.update(&state, with: .key(.right), now: Fixtures.now)
        XCTAssertEqual(state.mode, .details(cityID: Fixtures.tokyo.id), "→ steps to the next city")
        _ = App.update(&state, with: .key(.character("k")), now: Fixtures.now)
        XCTAssertEqual(state.mode, .details(cityID: Fixtures.seoul.id))
        XCTAssertEqual(SunTimes.times(latitude: 78.2, longitude: 15.6, on: Fixtures.now).map { _ in true }, nil, "polar night: no sunrise")
    }
}
