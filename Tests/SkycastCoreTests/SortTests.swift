import Foundation
import Models
import TestFixtures
import XCTest
@testable import SkycastCore

final class SortTests: XCTestCase {
    /// Seoul, Tokyo, São Paulo, Zürich bookmarked, in that (saved) order.
    func state() -> AppState {
        Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo, Fixtures.saoPaulo, Fixtures.zurich])
    }

    func names(_ state: AppState) -> [String] { state.allCities.map(\.name) }

    func testSCyclesTheOrdersAndSReverses() {
        var state = state()
        let temperatures = state.bookmarks.map { state.weather[$0.id]!.weather!.current.temperature }
        XCTAssertEqual(names(state), ["Seoul", "東京", "São Paulo", "Zürich"])
        _ = App.update(&state, with: .key(.character("s")), now: Fixtures.now)
        XCTAssertEqual(state.sortOrder, .temperature)
        XCTAssertEqual(state.allCities.map { state.weather[$0.id]!.weather!.current.temperature }, temperatures.sorted(by: >), "warmest first")
        _ = App.update(&state, with: .key(.character("s")), now: Fixtures.now)
        XCTAssertEqual(names(state), ["Seoul", "São Paulo", "Zürich", "東京"], "by name")
        _ = App.update(&state, with: .key(.character("s")), now: Fixtures.now)
        XCTAssertEqual(names(state), ["東京", "Seoul", "Zürich", "São Paulo"], "east to west")
        _ = App.update(&state, with: .key(.character("S")), now: Fixtures.now)
        XCTAssertEqual(names(state), ["São Paulo", "Zürich", "Seoul", "東京"])
        _ = App.update(&state, with: .key(.character("s")), now: Fixtures.now)
        _ = App.update(&state, with: .key(.character("S")), now: Fixtures.now)
        XCTAssertEqual(state.sortOrder, .yours)
        XCTAssertEqual(names(state), ["Seoul", "東京", "São Paulo", "Zürich"], "the saved order was kept underneath")
    }

    func testTheSelectionStaysOnItsCityAndJKReorderOnlyYourOrder() {
        var state = state()
        state.table.selected = Fixtures.zurich.id
        _ = App.update(&state, with: .key(.character("s")), now: Fixtures.now)
        _ = App.update(&state, with: .key(.character("s")), now: Fixtures.now)
        XCTAssertEqual(state.table.selected, Fixtures.zurich.id)
        XCTAssertEqual(App.update(&state, with: .key(.character("K")), now: Fixtures.now), [])
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.seoul, Fixtures.tokyo, Fixtures.saoPaulo, Fixtures.zurich].map(\.id))
        XCTAssertTrue(state.status?.text.hasPrefix("J K reorder your own order") ?? false)
    }

    func testANewTemperatureReordersASortedTable() {
        var state = state()
        _ = App.update(&state, with: .key(.character("s")), now: Fixtures.now)
        var cold = Fixtures.weather(Fixtures.tokyo)
        cold.current.temperature = 40
        cold.fetchedAt = Fixtures.now.addingTimeInterval(60)
        _ = App.update(&state, with: .weather(.success(cold)), now: Fixtures.now)
        XCTAssertEqual(state.allCities.first, Fixtures.tokyo, "the refresh moved it to the top")
    }
}

final class UndoTests: XCTestCase {
    func testUPutsBackTheLastRemovalWithItsBookmark() {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo, Fixtures.zurich])
        state.table.selected = Fixtures.tokyo.id
        let weather = state.weather[Fixtures.tokyo.id]
        _ = App.update(&state, with: .key(.character("x")), now: Fixtures.now)
        XCTAssertEqual(App.update(&state, with: .key(.character("y")), now: Fixtures.now), [.changeBookmarks(.remove(cityID: Fixtures.tokyo.id))])
        XCTAssertEqual(state.bookmarks, [Fixtures.seoul, Fixtures.zurich])
        XCTAssertEqual(App.update(&state, with: .key(.character("U")), now: Fixtures.now),
                       [.changeBookmarks(.add(Fixtures.tokyo)), .changeBookmarks(.move(cityID: Fixtures.tokyo.id, toIndex: 1))])
        XCTAssertEqual(state.bookmarks, [Fixtures.seoul, Fixtures.tokyo, Fixtures.zurich], "back where it stood")
        XCTAssertEqual(state.weather[Fixtures.tokyo.id], weather, "with what it showed")
        XCTAssertEqual(state.table.selected, Fixtures.tokyo.id)
        XCTAssertEqual(App.update(&state, with: .key(.character("U")), now: Fixtures.now), [])
        XCTAssertEqual(state.status?.text, "nothing to undo")
        state.added = [Fixtures.saoPaulo]
        state.table.selected = Fixtures.saoPaulo.id
        _ = App.update(&state, with: .key(.character("x")), now: Fixtures.now)
        XCTAssertEqual(state.added, [])
        XCTAssertEqual(App.update(&state, with: .key(.character("U")), now: Fixtures.now), [.fetchWeather([Fixtures.saoPaulo], force: false)])
        XCTAssertEqual(state.added, [Fixtures.saoPaulo])
    }
}

final class HomeCityTests: XCTestCase {
    func testAFirstRunOffersTheCityOfTheTimeZone() {
        var state = AppState(provider: .openMeteo, units: .metric, bookmarks: [], size: TerminalSize(rows: 24, columns: 80))
        state.homeZone = "Asia/Seoul"
        XCTAssertEqual(App.update(&state, with: .started, now: Fixtures.now), [.loadCatalog])
        let effects = App.update(&state, with: .catalogLoaded(Fixtures.catalog), now: Fixtures.now)
        XCTAssertEqual(state.added.map(\.name), ["Seoul"])
        XCTAssertEqual(effects, [.fetchWeather(state.added, force: false)])
        XCTAssertFalse(state.isBookmarked(state.added[0].id), "offered, not bookmarked")
        XCTAssertEqual(state.status?.text, "Seoul is the city of your time zone: b keeps it")
        XCTAssertNil(state.homeZone, "once")
        XCTAssertEqual(Fixtures.catalog.city(namedByTimeZone: "America/New_York")?.name, "New York City")
        XCTAssertEqual(Fixtures.catalog.city(namedByTimeZone: "Asia/Kolkata")?.countryCode, "IN", "no Kolkata by that name: the zone's largest")
        XCTAssertNil(Fixtures.catalog.city(namedByTimeZone: "Etc/UTC"))
        var bookmarked = Fixtures.state(bookmarks: [Fixtures.zurich])
        bookmarked.homeZone = "Asia/Seoul"
        _ = App.update(&bookmarked, with: .catalogLoaded(Fixtures.catalog), now: Fixtures.now)
        XCTAssertEqual(bookmarked.added, [], "only when the table would be empty")
    }
}

final class OfflineTests: XCTestCase {
    func testOfflineOffersDemoDataForTheRun() {
        var state = AppState(provider: .openMeteo, units: .metric, bookmarks: [Fixtures.seoul], size: TerminalSize(rows: 24, columns: 80))
        _ = App.update(&state, with: .started, now: Fixtures.now)
        let offline = WeatherError(.offline("could not connect to the server"), city: Fixtures.seoul, provider: .openMeteo)
        _ = App.update(&state, with: .weather(.failure(offline)), now: Fixtures.now)
        XCTAssertEqual(state.status?.text, "cannot reach Open-Meteo: could not connect to the server — D: demo data for this run (or start with --demo)")
        state.pending = []
        let effects = App.update(&state, with: .key(.character("D")), now: Fixtures.now)
        XCTAssertEqual(effects, [.useDemoData, .fetchWeather([Fixtures.seoul], force: true)])
        XCTAssertTrue(state.isDemo, "labelled DEMO DATA from now on")
        XCTAssertEqual(state.weather[Fixtures.seoul.id], .loading)
        XCTAssertEqual(App.update(&state, with: .key(.character("D")), now: Fixtures.now), [])
    }
}

final class LineEditorTests: XCTestCase {
    func search(_ state: AppState) -> SearchState? {
        if case let .search(search) = state.mode { return search }
        return nil
    }

    func testThePromptEditsAtTheCursor() {
        var state = Fixtures.state(bookmarks: [])
        _ = App.update(&state, with: .catalogLoaded(Fixtures.catalog), now: Fixtures.now)
        func send(_ keys: [Key]) { for key in keys { _ = App.update(&state, with: .key(key), now: Fixtures.now) } }
        send([.character("/")] + "Reykjavk".map { .character($0) } + [.left, .character("i")])
        XCTAssertEqual(search(state)?.query, "Reykjavik")
        XCTAssertEqual(search(state)?.cursor, 8)
        send([.home, .delete, .character("r"), .end, .backspace, .backspace])
        XCTAssertEqual(search(state)?.query, "reykjav")
        send([.control("a"), .right, .right, .control("k")])
        XCTAssertEqual(search(state)?.query, "re")
        send([.control("e")] + " new york".map { .character($0) } + [.control("w")])
        XCTAssertEqual(search(state)?.query, "re new ")
        send([.control("w"), .control("w")])
        XCTAssertEqual(search(state)?.query, "")
        // Grapheme clusters: an accented letter and a flag are one character each.
        _ = App.update(&state, with: .text("São 🇧🇷x"), now: Fixtures.now)
        send([.backspace, .backspace])
        XCTAssertEqual(search(state)?.query, "São ")
        send([.left, .left, .backspace])
        XCTAssertEqual(search(state)?.query, "So ")
        // A paste is one edit; its line breaks are spaces.
        send([.end, .control("u")])
        _ = App.update(&state, with: .text("Paris,\nFR"), now: Fixtures.now)
        XCTAssertEqual(search(state)?.query, "Paris, FR")
        XCTAssertEqual(search(state)?.suggestions.first?.city.name, "Paris")
        // Outside the prompt, text is the keys one by one.
        send([.escape])
        _ = App.update(&state, with: .text("?"), now: Fixtures.now)
        XCTAssertEqual(state.mode, .help(scroll: 0))
    }
}
