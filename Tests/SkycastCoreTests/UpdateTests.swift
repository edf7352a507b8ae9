import Catalog
import Models
import TestFixtures
import XCTest
@testable import SkycastCore

final class UpdateTests: XCTestCase {
    func send(_ keys: [Key], to state: inout AppState) -> [AppEffect] {
        keys.flatMap { App.update(&state, with: .key($0), now: Fixtures.now) }
    }

    func type(_ text: String) -> [Key] { text.map { Key.character($0) } }

    func testSearchAddsASelectedRowThatFetches() throws {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul])
        _ = App.update(&state, with: .catalogLoaded(Fixtures.catalog), now: Fixtures.now)
        var effects = send([.character("/")] + type("reykjav"), to: &state)
        XCTAssertEqual(effects, [])
        guard case let .search(search) = state.mode else { return XCTFail("search mode") }
        XCTAssertEqual(search.suggestions.first?.city.name, "Reykjavík")
        effects = send([.enter], to: &state)
        XCTAssertEqual(state.mode, .table)
        XCTAssertEqual(state.added.map(\.name), ["Reykjavík"])
        XCTAssertEqual(state.table.selected, state.added[0].id)
        XCTAssertEqual(state.weather[state.added[0].id], .loading)
        XCTAssertEqual(effects, [.fetchWeather([state.added[0]], force: false)])
        XCTAssertEqual(state.pending, [state.added[0].id])

        // Adding it again selects and flashes it instead of a duplicate.
        _ = send([.character("k")], to: &state)
        effects = send([.character("/")] + type("Reykjavik") + [.enter], to: &state)
        XCTAssertEqual(effects, [])
        XCTAssertEqual(state.added.count, 1)
        XCTAssertEqual(state.table.selected, state.added[0].id)
        XCTAssertEqual(state.highlightRequest?.cityID, state.added[0].id)
    }

    func testSearchKeys() throws {
        var state = Fixtures.state(bookmarks: [])
        state.provider = .openMeteo
        _ = send([.character("/")] + type("pa"), to: &state)
        guard case let .search(waiting) = state.mode else { return XCTFail() }
        XCTAssertEqual(waiting.note, "loading the city catalog…")
        _ = App.update(&state, with: .catalogLoaded(Fixtures.catalog), now: Fixtures.now)
        _ = send([.down, .down, .up, .backspace] + type("aris"), to: &state)
        guard case let .search(search) = state.mode else { return XCTFail() }
        XCTAssertEqual(search.query, "paris")
        XCTAssertEqual(search.chosen, 0)
        XCTAssertEqual(send([.tab], to: &state), [.geocode("paris")])
        let online = Fixtures.city(42, "Paris Online", "ZZ")
        _ = App.update(&state, with: .geocoded(query: "paris", .success([online])), now: Fixtures.now)
        guard case let .search(merged) = state.mode else { return XCTFail() }
        XCTAssertEqual(merged.online, .found(1))
        XCTAssertEqual(merged.suggestions.last?.city.id, 42)
        XCTAssertEqual(merged.suggestions.last?.kind, .online)
        _ = send([.escape], to: &state)
        XCTAssertEqual(state.mode, .table)
        // Nothing matches offline: Enter asks the online geocoder, the prompt stays.
        _ = send([.character("/")] + type("qqxxqqzz"), to: &state)
        guard case let .search(none) = state.mode else { return XCTFail() }
        XCTAssertEqual(none.note, "no match in the offline catalog; Tab searches online")
        XCTAssertEqual(send([.enter], to: &state), [.geocode("qqxxqqzz")])
        guard case let .search(asking) = state.mode else { return XCTFail() }
        XCTAssertEqual(asking.online, .searching)
        // An empty prompt: a note, no request.
        _ = send([.escape, .character("/"), .enter], to: &state)
        guard case let .search(empty) = state.mode else { return XCTFail() }
        XCTAssertEqual(empty.note, "type part of a city name")
    }

    func testBookmarkToggleMovesBetweenSectionsAndKeepsSelection() {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul])
        state.added = [Fixtures.tokyo]
        state.table.selected = Fixtures.tokyo.id
        XCTAssertEqual(send([.character("b")], to: &state), [.changeBookmarks(.add(Fixtures.tokyo))])
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.seoul.id, Fixtures.tokyo.id])
        XCTAssertEqual(state.added, [])
        XCTAssertEqual(state.table.selected, Fixtures.tokyo.id)
        XCTAssertEqual(send([.character("K")], to: &state), [.changeBookmarks(.move(cityID: Fixtures.tokyo.id, toIndex: 0))])
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.tokyo.id, Fixtures.seoul.id])
        XCTAssertEqual(send([.character("b")], to: &state), [.changeBookmarks(.remove(cityID: Fixtures.tokyo.id))])
        XCTAssertEqual(state.added.map(\.id), [Fixtures.tokyo.id])
        XCTAssertEqual(state.table.selected, Fixtures.tokyo.id)
        // Three writes are out; the answers to the first two are older than what the screen shows.
        XCTAssertEqual(state.bookmarkWritesInFlight, 3)
        XCTAssertEqual(App.update(&state, with: .bookmarksSaved(.success([Fixtures.seoul, Fixtures.tokyo])), now: Fixtures.now), [])
        XCTAssertEqual(App.update(&state, with: .bookmarksSaved(.success([Fixtures.tokyo, Fixtures.seoul])), now: Fixtures.now), [])
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.seoul.id], "not adopted before the last answer")
        // The last answer is the list on disk, which another instance may have grown.
        let effects = App.update(&state, with: .bookmarksSaved(.success([Fixtures.seoul, Fixtures.zurich])), now: Fixtures.now)
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.seoul.id, Fixtures.zurich.id])
        XCTAssertEqual(state.added.map(\.id), [Fixtures.tokyo.id])
        XCTAssertEqual(effects, [.fetchWeather([Fixtures.zurich], force: false)])
        // Another instance removed Seoul: it stays on screen, among the added cities.
        _ = App.update(&state, with: .bookmarksSaved(.success([Fixtures.zurich])), now: Fixtures.now)
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.zurich.id])
        XCTAssertEqual(Set(state.added.map(\.id)), [Fixtures.seoul.id, Fixtures.tokyo.id])
    }

    func testRemovingABookmarkAsksFirst() {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo])
        state.table.selected = Fixtures.seoul.id
        XCTAssertEqual(send([.character("x")], to: &state), [])
        XCTAssertEqual(state.mode, .confirmRemove(cityID: Fixtures.seoul.id))
        XCTAssertEqual(send([.character("n")], to: &state), [])
        XCTAssertEqual(state.bookmarks.count, 2)
        XCTAssertEqual(send([.delete, .character("y")], to: &state), [.changeBookmarks(.remove(cityID: Fixtures.seoul.id))])
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.tokyo.id])
        XCTAssertEqual(state.table.selected, Fixtures.tokyo.id)
        state.added = [Fixtures.zurich]
        state.table.selected = Fixtures.zurich.id
        XCTAssertEqual(send([.character("x")], to: &state), [], "an unbookmarked city goes at once")
        XCTAssertEqual(state.added, [])
        XCTAssertEqual(state.table.selected, Fixtures.tokyo.id)
    }

    func testNavigationUnitsHelpDetailsQuit() {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo, Fixtures.saoPaulo, Fixtures.zurich])
        _ = send([.character("j"), .down], to: &state)
        XCTAssertEqual(state.table.selected, Fixtures.saoPaulo.id)
        _ = send([.end], to: &state)
        XCTAssertEqual(state.table.selected, Fixtures.zurich.id)
        _ = send([.character("g")], to: &state)
        XCTAssertEqual(state.table.selected, Fixtures.seoul.id)
        _ = send([.pageDown], to: &state)
        XCTAssertEqual(state.table.selected, Fixtures.zurich.id)
        _ = send([.character("u")], to: &state)
        XCTAssertEqual(state.units, .imperial)
        _ = send([.character("?")], to: &state)
        XCTAssertEqual(state.mode, .help(scroll: 0))
        _ = send([.character("x")], to: &state)
        XCTAssertEqual(state.mode, .table, "any key closes help")
        _ = send([.enter], to: &state)
        XCTAssertEqual(state.mode, .details(cityID: Fixtures.zurich.id))
        XCTAssertEqual(send([.character("r")], to: &state), [.fetchWeather([Fixtures.zurich], force: true)])
        _ = send([.escape], to: &state)
        XCTAssertEqual(state.mode, .table)
        XCTAssertEqual(send([.control("l")], to: &state), [.redraw])
        XCTAssertEqual(send([.character("q")], to: &state), [.quit])
        XCTAssertEqual(send([.control("c")], to: &state), [.quit])
    }

    func testWeatherResultsAndFailuresNeverDropARow() {
        var state = Fixtures.state(bookmarks: [])
        state.bookmarks = [Fixtures.seoul, Fixtures.tokyo]
        let effects = App.fetch(state.allCities, state: &state, force: false, now: Fixtures.now)
        XCTAssertEqual(effects, [.fetchWeather([Fixtures.seoul, Fixtures.tokyo], force: false)])
        XCTAssertEqual(state.refreshTotal, 2)
        _ = App.update(&state, with: .weather(.success(Fixtures.weather(Fixtures.seoul))), now: Fixtures.now)
        let error = WeatherError(.timeout(seconds: 10, attempts: 1), city: Fixtures.tokyo, provider: .openMeteo)
        _ = App.update(&state, with: .weather(.failure(error)), now: Fixtures.now)
        _ = App.update(&state, with: .fetchFinished([Fixtures.seoul.id, Fixtures.tokyo.id]), now: Fixtures.now)
        XCTAssertEqual(state.weather[Fixtures.tokyo.id], .failed(error, previous: nil))
        XCTAssertEqual(state.status?.text, "Open-Meteo did not answer within 10 s — D: demo data for this run (or start with --demo)")
        let broken = WeatherError(.invalidResponse("no current conditions"), city: Fixtures.seoul, provider: .openMeteo)
        _ = App.update(&state, with: .weather(.failure(broken)), now: Fixtures.now)
        XCTAssertEqual(state.status?.text, "Seoul: Open-Meteo sent an unusable reply: no current conditions")
        XCTAssertEqual(state.weather[Fixtures.seoul.id]?.weather, Fixtures.weather(Fixtures.seoul), "the older data stays shown")
        _ = send([.character("j")], to: &state)
        XCTAssertNotNil(state.status, "an error stays until Esc")
        _ = send([.escape], to: &state)
        XCTAssertNil(state.status)
        _ = send([.character("u"), .character("j")], to: &state)
        XCTAssertNil(state.status, "a note goes with the next key")
        XCTAssertTrue(state.pending.isEmpty)
        XCTAssertEqual(state.allCities.count, 2)
        // An older result (a stale cache entry) never replaces a newer one.
        var older = Fixtures.weather(Fixtures.seoul)
        older.fetchedAt = Fixtures.now.addingTimeInterval(-3600)
        older.current.temperature = -40
        _ = App.update(&state, with: .weather(.success(older)), now: Fixtures.now)
        XCTAssertNotEqual(state.weather[Fixtures.seoul.id]?.weather?.current.temperature, -40)
    }

    func testTickRefreshesWhenDue() {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul])
        state.lastRefresh = Fixtures.now
        XCTAssertEqual(App.update(&state, with: .tick, now: Fixtures.now.addingTimeInterval(60)), [])
        XCTAssertEqual(App.update(&state, with: .tick, now: Fixtures.now.addingTimeInterval(601)), [.fetchWeather([Fixtures.seoul], force: false)])
        XCTAssertEqual(App.update(&state, with: .tick, now: Fixtures.now.addingTimeInterval(700)), [], "not while a refresh runs")
    }
}

final class DemoTests: XCTestCase {
    /// --demo never touches the network: the search stays in the offline catalog.
    func testDemoSearchNeverAsksTheGeocoder() {
        var state = Fixtures.state(bookmarks: [])
        _ = App.update(&state, with: .catalogLoaded(Fixtures.catalog), now: Fixtures.now)
        XCTAssertTrue(state.isDemo)
        var effects: [AppEffect] = []
        for key in [Key.character("/")] + "qxqxqxq".map({ Key.character($0) }) + [.tab, .enter] {
            effects += App.update(&state, with: .key(key), now: Fixtures.now)
        }
        XCTAssertEqual(effects, [])
        guard case let .search(search) = state.mode else { return XCTFail("still searching") }
        XCTAssertEqual(search.note, "no match in the offline catalog (demo mode does not search online)")
    }
}

final class StartTests: XCTestCase {
    func testStartingLoadsTheCatalogOnlyWhenItIsNotOpenYet() {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul])
        XCTAssertEqual(App.update(&state, with: .started, now: Fixtures.now), [.loadCatalog, .fetchWeather([Fixtures.seoul], force: false)])
        XCTAssertEqual(state.lastRefresh, Fixtures.now)
        var ready = Fixtures.state(bookmarks: [])
        ready.catalog = Fixtures.catalog
        XCTAssertEqual(App.update(&ready, with: .started, now: Fixtures.now), [], "the index was mapped before the first frame")
        _ = App.update(&ready, with: .key(.character("/")), now: Fixtures.now)
        guard case let .search(search) = ready.mode else { return XCTFail("search") }
        XCTAssertNil(search.note, "no loading moment")
    }
}

final class SelectionTests: XCTestCase {
    /// The state is the only owner of the selection: a row drawn selected is the row Enter and b act on.
    func testAdoptedBookmarksGetASelectionThatKeysActOn() {
        var state = Fixtures.state(bookmarks: [])
        XCTAssertNil(state.table.selected)
        _ = App.update(&state, with: .bookmarksSaved(.success([Fixtures.seoul, Fixtures.tokyo])), now: Fixtures.now)
        XCTAssertEqual(state.table.selected, Fixtures.seoul.id)
        _ = App.update(&state, with: .key(.enter), now: Fixtures.now)
        XCTAssertEqual(state.mode, .details(cityID: Fixtures.seoul.id))
        _ = App.update(&state, with: .key(.escape), now: Fixtures.now)
        XCTAssertEqual(App.update(&state, with: .key(.character("b")), now: Fixtures.now), [.changeBookmarks(.remove(cityID: Fixtures.seoul.id))])
    }

    func testPagingAndScrollingFollowTheLayout() {
        let cities = (0..<30).map { Fixtures.city(1000 + $0, "City \($0)", "XX") }
        var state = Fixtures.state(bookmarks: cities, size: TerminalSize(rows: 12, columns: 80))
        let layout = ScreenLayout(size: state.size)
        XCTAssertEqual(layout.bodyHeight, 7)
        _ = App.update(&state, with: .key(.pageDown), now: Fixtures.now)
        XCTAssertEqual(state.table.selected, cities[layout.pageSize].id)
        XCTAssertEqual(state.table.scrollOffset, 0, "row 6 of 7 lines is in view")
        _ = App.update(&state, with: .key(.pageDown), now: Fixtures.now)
        XCTAssertEqual(state.table.selected, cities[2 * layout.pageSize].id)
        XCTAssertEqual(state.table.scrollOffset, 2 * layout.pageSize - layout.bodyHeight + 1)
        _ = App.update(&state, with: .key(.character("G")), now: Fixtures.now)
        XCTAssertEqual(state.table.scrollOffset, 30 - 7)
        // A smaller window keeps the selected row in view.
        _ = App.update(&state, with: .key(.character("k")), now: Fixtures.now)
        _ = App.update(&state, with: .resize(TerminalSize(rows: 8, columns: 80)), now: Fixtures.now)
        XCTAssertEqual(state.table.scrollOffset, 28 - 3 + 1)
        // Removing the selected row selects the one that takes its place.
        _ = App.update(&state, with: .bookmarksSaved(.success(Array(cities.prefix(28)) + [cities[29]])), now: Fixtures.now)
        XCTAssertTrue(state.allCities.contains(cities[28]), "a city unbookmarked elsewhere stays on screen")
    }
}

final class UpdateErrorTests: XCTestCase {
    func testAFailedBookmarkWriteIsReportedAndTheAppGoesOn() {
        var state = Fixtures.state(bookmarks: [])
        state.added = [Fixtures.seoul]
        state.table.selected = Fixtures.seoul.id
        XCTAssertEqual(App.update(&state, with: .key(.character("b")), now: Fixtures.now), [.changeBookmarks(.add(Fixtures.seoul))])
        let failure = BookmarkFailure(message: "cannot create /nope/skycast: Permission denied")
        XCTAssertEqual(App.update(&state, with: .bookmarksSaved(.failure(failure)), now: Fixtures.now), [])
        XCTAssertEqual(state.status, .init(text: "bookmarks not saved: cannot create /nope/skycast: Permission denied", isError: true))
        XCTAssertEqual(state.bookmarkWritesInFlight, 0)
        XCTAssertEqual(state.bookmarks.map(\.id), [Fixtures.seoul.id], "the row stays where the user put it")
        XCTAssertEqual(App.update(&state, with: .catalogFailed("the bundled city data cities.tsv is missing (reinstall skycast)"), now: Fixtures.now), [])
        XCTAssertEqual(state.status?.text, "the bundled city data cities.tsv is missing (reinstall skycast)")
    }

    func testAFailedBookmarkWriteShowsWhatTheFileHolds() {
        var state = Fixtures.state(bookmarks: [])
        state.added = [Fixtures.seoul]
        state.table.selected = Fixtures.seoul.id
        _ = App.update(&state, with: .key(.character("b")), now: Fixtures.now)
        XCTAssertTrue(state.isBookmarked(Fixtures.seoul.id))
        let failure = BookmarkFailure(message: "cannot write /x/bookmarks.json: Read-only file system", onDisk: [])
        XCTAssertEqual(App.update(&state, with: .bookmarksSaved(.failure(failure)), now: Fixtures.now), [])
        XCTAssertFalse(state.isBookmarked(Fixtures.seoul.id), "the star goes: the file does not have it")
        XCTAssertEqual(state.allCities, [Fixtures.seoul], "the row stays on screen, unbookmarked")
    }

    func testReadOnlyBookmarksRefuseEveryChange() {
        var state = Fixtures.state(bookmarks: [Fixtures.seoul, Fixtures.tokyo])
        state.added = [Fixtures.zurich]
        state.bookmarksReadOnly = "bookmarks are read-only (/ro/skycast/bookmarks.json)"
        let refusal = AppState.StatusMessage(text: "cannot save: bookmarks are read-only (/ro/skycast/bookmarks.json)", isError: true)
        for key: Key in [.character("b"), .character("J"), .character("K"), .character("x"), .delete] {
            state.table.selected = Fixtures.tokyo.id
            state.status = nil
            XCTAssertEqual(App.update(&state, with: .key(key), now: Fixtures.now), [], "\(key)")
            XCTAssertEqual(state.status, refusal, "\(key)")
            XCTAssertEqual(state.mode, .table, "no confirmation for a removal that cannot be saved")
        }
        state.table.selected = Fixtures.zurich.id
        XCTAssertEqual(App.update(&state, with: .key(.character("b")), now: Fixtures.now), [])
        XCTAssertEqual(state.status, refusal, "bookmarking an added city cannot be saved either")
        XCTAssertEqual(state.bookmarks, [Fixtures.seoul, Fixtures.tokyo])
        XCTAssertEqual(state.added, [Fixtures.zurich])
        XCTAssertEqual(state.bookmarkWritesInFlight, 0)
        state.status = nil
        XCTAssertEqual(App.update(&state, with: .key(.character("x")), now: Fixtures.now), [], "an added city is not in the file")
        XCTAssertEqual(state.allCities, [Fixtures.seoul, Fixtures.tokyo], "so removing it needs no write")
        _ = App.update(&state, with: .key(.enter), now: Fixtures.now)
        XCTAssertEqual(state.mode, .details(cityID: Fixtures.tokyo.id), "reading keys still work")
    }
}
