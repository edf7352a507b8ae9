import Catalog
import Foundation
import Models

/// The app's logic: how each event changes the state, and what work it asks for. Pure: no I/O, no
/// clock but the `now` it is given, no terminal.
public enum App {
    public static let suggestionLimit = 8
    /// Rows a mouse wheel step moves.
    static let wheelStep = 3

    public static func update(_ state: inout AppState, with event: AppEvent, now: Date) -> [AppEffect] {
        let previousRows = state.allCities.map(\.id)
        let effects = apply(event, to: &state, now: now)
        // One place decides what is selected when rows come and go, and keeps it in view.
        state.table.reconcile(lines: state.tableLines, previousItems: previousRows, height: ScreenLayout(size: state.size).bodyHeight)
        return effects
    }

    private static func apply(_ event: AppEvent, to state: inout AppState, now: Date) -> [AppEffect] {
        switch event {
        case let .text(text):
            // A paste into the prompt is one edit; anywhere else, the keys one by one.
            guard case var .search(search) = state.mode else {
                return text.flatMap { apply(.key(.character($0)), to: &state, now: now) }
            }
            insert(text, into: &search, state: &state)
            state.mode = .search(search)
            return []
        case .started:
            state.lastRefresh = now
            return (state.catalog == nil ? [.loadCatalog] : []) + offerHomeCity(state: &state) + fetch(state.allCities, state: &state, force: false)
        case let .key(key):
            return handle(key, state: &state, now: now)
        case let .weather(.success(weather)):
            let id = weather.city.id
            if let known = state.weather[id]?.weather, known.fetchedAt > weather.fetchedAt { return [] }
            state.weather[id] = .loaded(weather)
            return []
        case let .weather(.failure(error)):
            guard let city = error.city, error.kind != .cancelled else { return [] }
            state.weather[city.id] = .failed(error, previous: state.weather[city.id]?.weather)
            switch error.kind {
            case .offline, .timeout:
                // Likely no network at all: say so, and offer what works without one.
                state.status = .init(text: "\(error.message) \u{2014} D: demo data for this run (or start with --demo)", isError: true)
            case .rateLimited, .badAPIKey, .missingAPIKey:
                // The service's trouble, not the city's: one message for all the rows it hits.
                state.status = .init(text: error.message, isError: true)
            default:
                state.status = .init(text: "\(city.name): \(error.message)", isError: true)
            }
            return []
        case let .fetchFinished(ids):
            state.pending.subtract(ids)
            for id in ids where state.weather[id] == .loading {
                // No result arrived (cancelled): say so rather than spin forever.
                state.weather[id] = .failed(WeatherError(.cancelled, city: state.city(id: id)), previous: nil)
            }
            if state.pending.isEmpty { state.refreshTotal = 0 }
            return []
        case let .geocoded(query, result):
            guard case var .search(search) = state.mode, search.query == query else { return [] }
            switch result {
            case let .success(cities):
                let local = search.suggestions.filter { $0.kind != .online }
                search.suggestions = Catalog.merging(local: local, online: cities, limit: suggestionLimit + 4)
                search.online = .found(cities.count)
            case let .failure(error):
                search.online = .failed(error.message)
            }
            state.mode = .search(search)
            return []
        case let .catalogLoaded(catalog):
            state.catalog = catalog
            if case var .search(search) = state.mode {
                refreshSuggestions(&search, catalog: catalog)
                state.mode = .search(search)
            }
            return offerHomeCity(state: &state)
        case let .catalogFailed(message):
            state.status = .init(text: message, isError: true)
            return []
        case let .bookmarksSaved(.success(cities)):
            state.bookmarkWritesInFlight = max(0, state.bookmarkWritesInFlight - 1)
            // Writes are applied in order; only the answer to the last one has all of ours in it.
            guard state.bookmarkWritesInFlight == 0 else { return [] }
            return adoptBookmarks(cities, state: &state)
        case let .bookmarksSaved(.failure(error)):
            state.bookmarkWritesInFlight = max(0, state.bookmarkWritesInFlight - 1)
            state.status = .init(text: "bookmarks not saved: \(error.message)", isError: true)
            // Show what the file holds, so that nothing on screen pretends the change was saved.
            guard let onDisk = error.onDisk, state.bookmarkWritesInFlight == 0 else { return [] }
            return adoptBookmarks(onDisk, state: &state)
        case let .resize(size):
            state.size = size
            return []
        case .tick:
            guard state.pending.isEmpty, !state.allCities.isEmpty else { return [] }
            if let last = state.lastRefresh, now.timeIntervalSince(last) < state.effectiveRefreshInterval { return [] }
            return fetch(state.allCities, state: &state, force: false, now: now)
        }
    }

    /// Starts fetching `cities`: rows without data show "loading…" until their result comes.
    public static func fetch(_ cities: [City], state: inout AppState, force: Bool, now: Date? = nil) -> [AppEffect] {
        guard !cities.isEmpty else { return [] }
        for city in cities where state.weather[city.id] == nil { state.weather[city.id] = .loading }
        let fresh = cities.filter { !state.pending.contains($0.id) }
        state.pending.formUnion(cities.map(\.id))
        state.refreshTotal += fresh.count
        if let now { state.lastRefresh = now }
        return [.fetchWeather(cities, force: force)]
    }

    // MARK: - Keys

    private static func handle(_ key: Key, state: inout AppState, now: Date) -> [AppEffect] {
        switch Keymap.action(for: key, in: .anywhere) {
        case .quit: return [.quit]
        case .redraw: return [.redraw]
        default: break
        }
        switch state.mode {
        case .table: return handleTableKey(key, state: &state, now: now)
        case var .search(search):
            let effects = handleSearchKey(key, search: &search, state: &state)
            if case .search = state.mode { state.mode = .search(search) }
            return effects
        case let .details(id):
            switch Keymap.action(for: key, in: .details) {
            case .back: state.mode = .table
            case .moveDown, .moveUp:
                // Step through the table's cities without leaving details.
                state.table.moveSelection(by: Keymap.action(for: key, in: .details) == .moveDown ? 1 : -1, in: state.allCities.map(\.id))
                if let selected = state.table.selected { state.mode = .details(cityID: selected) }
            case .refresh: return state.city(id: id).map { fetch([$0], state: &state, force: true) } ?? []
            case .toggleUnits:
                state.units = state.units.toggled
                return [.rememberView(state.viewPreferences)]
            default: break
            }
            return []
        case let .help(scroll):
            // Arrows scroll a help taller than the window; any other key closes it.
            let lines = ScreenLayout(size: state.size).helpLines
            let most = max(0, Keymap.helpLineCount - lines)
            switch key {
            case .down, .character("j"): state.mode = .help(scroll: min(most, scroll + 1))
            case .up, .character("k"): state.mode = .help(scroll: max(0, scroll - 1))
            case .pageDown, .character(" "): state.mode = .help(scroll: min(most, scroll + lines))
            case .pageUp: state.mode = .help(scroll: max(0, scroll - lines))
            default: state.mode = .table
            }
            return []
        case let .confirmRemove(id):
            state.mode = .table
            guard key == .character("y") || key == .character("Y") else {
                state.status = .init(text: "kept", isError: false)
                return []
            }
            return remove(id, state: &state)
        }
    }

    private static func handleTableKey(_ key: Key, state: inout AppState, now: Date) -> [AppEffect] {
        // A note lasts until the next key; an error stays until Esc or the next message.
        if state.status?.isError == false { state.status = nil }
        guard let action = Keymap.action(for: key, in: .table) else {
            if case .character = key, state.allCities.isEmpty {
                state.status = .init(text: "no cities yet: press / to search", isError: false)
            }
            return []
        }
        let rows = state.allCities.map(\.id)
        let page = ScreenLayout(size: state.size).pageSize
        switch action {
        case .moveDown: state.table.moveSelection(by: 1, in: rows)
        case .moveUp: state.table.moveSelection(by: -1, in: rows)
        case .first: state.table.moveSelection(by: -rows.count, in: rows)
        case .last: state.table.moveSelection(by: rows.count, in: rows)
        case .pageDown: state.table.moveSelection(by: page, in: rows)
        case .pageUp: state.table.moveSelection(by: -page, in: rows)
        case .halfPageDown: state.table.moveSelection(by: max(1, page / 2), in: rows)
        case .halfPageUp: state.table.moveSelection(by: -max(1, page / 2), in: rows)
        case .scrollDown: state.table.moveSelection(by: wheelStep, in: rows)
        case .scrollUp: state.table.moveSelection(by: -wheelStep, in: rows)
        case .search:
            var search = SearchState()
            if state.catalog == nil { search.note = "loading the city catalog…" }
            state.mode = .search(search)
        case .help: state.mode = .help(scroll: 0)
        case .toggleUnits:
            state.units = state.units.toggled
            state.status = .init(text: state.units == .metric ? "units: Celsius, km/h" : "units: Fahrenheit, mph", isError: false)
            return [.rememberView(state.viewPreferences)]
        case .quit: return [.quit]
        case .redraw: return [.redraw]
        case .refreshAll: return fetch(state.allCities, state: &state, force: true, now: now)
        case .sort:
            state.sortOrder = state.sortOrder.next
            state.status = .init(text: state.sortOrder == .yours ? "your order" : "sorted by \(state.sortOrder.rawValue)", isError: false)
            return [.rememberView(state.viewPreferences)]
        case .reverseSort:
            state.sortReversed.toggle()
            state.status = .init(text: state.sortReversed ? "reversed" : "not reversed", isError: false)
            return [.rememberView(state.viewPreferences)]
        case .dismiss: state.status = nil
        case .useDemoData:
            guard !state.isDemo else { return [] }
            // This run only: the rows refill with simulated weather, labelled as everywhere.
            state.provider = .demo
            state.weather = [:]
            state.pending = []
            state.status = .init(text: "demo data for this run: simulated weather, not a forecast", isError: false)
            return [.useDemoData] + fetch(state.allCities, state: &state, force: true, now: now)
        case .undoRemoval: return undoRemoval(state: &state)
        case .details, .refresh, .bookmark, .remove, .moveBookmarkDown, .moveBookmarkUp:
            guard let id = state.table.selected, let city = state.city(id: id) else {
                if state.allCities.isEmpty { state.status = .init(text: "no cities yet: press / to search", isError: false) }
                return []
            }
            return handleCityAction(action, city: city, state: &state)
        case .back: break
        }
        return []
    }

    private static func handleCityAction(_ action: KeyAction, city: City, state: inout AppState) -> [AppEffect] {
        if let readOnly = state.bookmarksReadOnly, changesBookmarks(action, city: city, state: state) {
            state.status = .init(text: "cannot save: \(readOnly)", isError: true)
            return []
        }
        switch action {
        case .details:
            state.mode = .details(cityID: city.id)
        case .refresh:
            return fetch([city], state: &state, force: true)
        case .bookmark:
            if state.isBookmarked(city.id) {
                state.bookmarks.removeAll { $0.id == city.id }
                state.added.insert(city, at: 0)
                state.status = .init(text: "\(city.name): bookmark removed", isError: false)
                return [changeBookmarks(.remove(cityID: city.id), state: &state)]
            }
            state.added.removeAll { $0.id == city.id }
            state.bookmarks.append(city)
            state.status = .init(text: "\(city.name): bookmarked", isError: false)
            return [changeBookmarks(.add(city), state: &state)]
        case .remove:
            if state.isBookmarked(city.id) {
                state.mode = .confirmRemove(cityID: city.id)
                return []
            }
            return remove(city.id, state: &state)
        case .moveBookmarkDown, .moveBookmarkUp:
            guard state.sortOrder == .yours, !state.sortReversed else {
                state.status = .init(text: "J K reorder your own order: press s until the title shows no order, S to unreverse", isError: false)
                return []
            }
            guard let index = state.bookmarks.firstIndex(where: { $0.id == city.id }) else {
                state.status = .init(text: "only bookmarked cities can be reordered (b bookmarks)", isError: false)
                return []
            }
            let target = action == .moveBookmarkDown ? index + 1 : index - 1
            guard state.bookmarks.indices.contains(target) else { return [] }
            state.bookmarks.swapAt(index, target)
            return [changeBookmarks(.move(cityID: city.id, toIndex: target), state: &state)]
        default:
            break
        }
        return []
    }

    /// Whether `action` on `city`'s row would change the bookmarks file.
    private static func changesBookmarks(_ action: KeyAction, city: City, state: AppState) -> Bool {
        switch action {
        case .bookmark: return true
        case .moveBookmarkDown, .moveBookmarkUp, .remove: return state.isBookmarked(city.id)
        default: return false
        }
    }

    private static func remove(_ id: Int, state: inout AppState) -> [AppEffect] {
        guard let city = state.city(id: id) else { return [] }
        let name = city.name
        let wasBookmarked = state.isBookmarked(id)
        state.lastRemoval = AppState.Removal(city: city, bookmarkIndex: state.bookmarks.firstIndex { $0.id == id },
                                             addedIndex: state.added.firstIndex { $0.id == id }, weather: state.weather[id])
        state.bookmarks.removeAll { $0.id == id }
        state.added.removeAll { $0.id == id }
        state.weather[id] = nil
        state.pending.remove(id)
        state.status = .init(text: "\(name) removed (U puts it back)", isError: false)
        return wasBookmarked ? [changeBookmarks(.remove(cityID: id), state: &state)] : []
    }

    /// A first run, with nothing bookmarked: the city of the user's time zone as a row to keep (or
    /// not), found offline. Once.
    private static func offerHomeCity(state: inout AppState) -> [AppEffect] {
        guard state.allCities.isEmpty, let zone = state.homeZone, let catalog = state.catalog else { return [] }
        state.homeZone = nil
        guard let city = catalog.city(namedByTimeZone: zone) else { return [] }
        state.added.append(city)
        state.status = .init(text: "\(city.name) is the city of your time zone: b keeps it", isError: false)
        return fetch([city], state: &state, force: false)
    }

    /// `U`: the last removed city back where it was, its bookmark saved again.
    private static func undoRemoval(state: inout AppState) -> [AppEffect] {
        guard let removal = state.lastRemoval else {
            state.status = .init(text: "nothing to undo", isError: false)
            return []
        }
        if let readOnly = state.bookmarksReadOnly, removal.bookmarkIndex != nil {
            state.status = .init(text: "cannot save: \(readOnly)", isError: true)
            return []
        }
        state.lastRemoval = nil
        let city = removal.city
        guard state.city(id: city.id) == nil else { return [] }
        state.weather[city.id] = removal.weather
        state.table.selected = city.id
        state.status = .init(text: "\(city.name) is back", isError: false)
        if let index = removal.bookmarkIndex {
            state.bookmarks.insert(city, at: min(index, state.bookmarks.count))
            return [changeBookmarks(.add(city), state: &state), changeBookmarks(.move(cityID: city.id, toIndex: index), state: &state)]
        }
        state.added.insert(city, at: min(removal.addedIndex ?? state.added.count, state.added.count))
        return removal.weather == nil ? fetch([city], state: &state, force: false) : []
    }

    private static func changeBookmarks(_ change: BookmarkChange, state: inout AppState) -> AppEffect {
        state.bookmarkWritesInFlight += 1
        return .changeBookmarks(change)
    }

    /// Takes the bookmarks as the file has them (another instance may have changed them too). A city
    /// that was on screen and is no longer bookmarked stays, among the added ones: nothing vanishes.
    private static func adoptBookmarks(_ cities: [City], state: inout AppState) -> [AppEffect] {
        let shown = state.allCities
        let bookmarked = Set(cities.map(\.id))
        let unbookmarked = state.bookmarks.filter { !bookmarked.contains($0.id) && !state.added.contains($0) }
        state.bookmarks = cities
        state.added = unbookmarked + state.added.filter { !bookmarked.contains($0.id) }
        let shownIDs = Set(shown.map(\.id))
        let arrived = cities.filter { !shownIDs.contains($0.id) }
        return fetch(arrived, state: &state, force: false)
    }

    // MARK: - Search

    private static func handleSearchKey(_ key: Key, search: inout SearchState, state: inout AppState) -> [AppEffect] {
        switch key {
        case .escape:
            state.mode = .table
        case let .character(character):
            insert(String(character), into: &search, state: &state)
        case .backspace:
            guard !search.query.isEmpty else { state.mode = .table; return [] }
            edit(&search, state: &state) { query, cursor in
                guard cursor > 0 else { return }
                query.remove(at: query.index(query.startIndex, offsetBy: cursor - 1))
                cursor -= 1
            }
        case .delete, .control("d"):
            edit(&search, state: &state) { query, cursor in
                if cursor < query.count { query.remove(at: query.index(query.startIndex, offsetBy: cursor)) }
            }
        case .left, .control("b"): search.cursor = max(0, search.cursor - 1)
        case .right, .control("f"): search.cursor = min(search.query.count, search.cursor + 1)
        case .home, .control("a"): search.cursor = 0
        case .end, .control("e"): search.cursor = search.query.count
        case .control("u"):
            edit(&search, state: &state) { query, cursor in
                query.removeFirst(cursor)
                cursor = 0
            }
        case .control("k"):
            edit(&search, state: &state) { query, cursor in query.removeLast(query.count - cursor) }
        case .control("w"):
            // The word before the cursor, and the spaces after it.
            edit(&search, state: &state) { query, cursor in
                let characters = Array(query)
                var start = cursor
                while start > 0, characters[start - 1] == " " { start -= 1 }
                while start > 0, characters[start - 1] != " " && characters[start - 1] != "," { start -= 1 }
                query = String(characters[..<start] + characters[cursor...])
                cursor = start
            }
        case .down, .control("n"):
            if !search.suggestions.isEmpty { search.chosen = min(search.chosen + 1, search.suggestions.count - 1) }
        case .up, .control("p"):
            search.chosen = max(0, search.chosen - 1)
        case .tab:
            let query = search.query.trimmingCharacters(in: .whitespaces)
            guard !query.isEmpty else { return [] }
            guard !state.isDemo else {
                search.note = "demo mode searches only the offline catalog (no network)"
                return []
            }
            search.online = .searching
            return [.geocode(search.query)]
        case .enter:
            guard search.suggestions.indices.contains(search.chosen) else {
                // Too few matches offline: ask the online geocoder (unless the query itself is the problem).
                guard let catalog = state.catalog, (try? catalog.search(search.query, limit: 1)) != nil else {
                    if search.query.trimmingCharacters(in: .whitespaces).isEmpty { search.note = "type part of a city name" }
                    return []
                }
                guard !state.isDemo else {
                    search.note = "no match in the offline catalog (demo mode does not search online)"
                    return []
                }
                search.note = "no match in the offline catalog; searching online…"
                search.online = .searching
                return [.geocode(search.query)]
            }
            return add(search.suggestions[search.chosen].city, state: &state)
        default:
            break
        }
        return []
    }

    /// Inserts `text` at the cursor: one edit, one search, however long the text (a paste).
    static func insert(_ text: String, into search: inout SearchState, state: inout AppState) {
        let room = Catalog.maximumQueryLength - search.query.unicodeScalars.count
        guard room > 0 else {
            search.note = "the query is at its longest"
            return
        }
        // Line breaks and tabs of a paste are spaces in a one-line prompt.
        var fitted = ""
        for character in text.map({ $0.isNewline || $0 == "\t" ? " " : $0 }) where fitted.unicodeScalars.count + character.unicodeScalars.count <= room {
            fitted.append(character)
        }
        edit(&search, state: &state) { query, cursor in
            query.insert(contentsOf: fitted, at: query.index(query.startIndex, offsetBy: cursor))
            cursor += fitted.count
        }
    }

    /// Changes the query (and cursor), then searches again.
    private static func edit(_ search: inout SearchState, state: inout AppState, _ change: (inout String, inout Int) -> Void) {
        search.cursor = min(max(0, search.cursor), search.query.count)
        change(&search.query, &search.cursor)
        search.cursor = min(max(0, search.cursor), search.query.count)
        search.online = .idle
        refreshSuggestions(&search, catalog: state.catalog)
    }

    public static func refreshSuggestions(_ search: inout SearchState, catalog: Catalog?) {
        search.chosen = 0
        search.note = nil
        guard let catalog else {
            search.suggestions = []
            search.note = "loading the city catalog…"
            return
        }
        guard !search.query.trimmingCharacters(in: .whitespaces).isEmpty else {
            search.suggestions = []
            return
        }
        do {
            search.suggestions = try catalog.search(search.query, limit: suggestionLimit)
            if search.suggestions.isEmpty { search.note = "no match in the offline catalog; Tab searches online" }
        } catch {
            search.suggestions = []
            search.note = error.description
        }
    }

    /// Adds a city from search: a new row, selected, fetching; or, when it is already there, the
    /// existing row selected and flashed.
    public static func add(_ city: City, state: inout AppState) -> [AppEffect] {
        state.mode = .table
        state.table.selected = city.id
        if state.city(id: city.id) != nil {
            state.highlightRequest = (city.id, (state.highlightRequest?.serial ?? 0) + 1)
            state.status = .init(text: "\(city.name) is already in the table", isError: false)
            return []
        }
        state.added.append(city)
        state.status = .init(text: "added \(city.qualifiedName)", isError: false)
        return fetch([city], state: &state, force: false)
    }
}
