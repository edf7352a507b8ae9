import Catalog
import Foundation
import Models

/// Everything the screen shows, as plain values. Changed only by `update(_:with:)`.
public struct AppState: Sendable {
    public enum Mode: Sendable, Equatable {
        case table
        case search(SearchState)
        case details(cityID: Int)
        /// The help overlay, scrolled down this many lines.
        case help(scroll: Int)
        case confirmRemove(cityID: Int)
    }

    /// What is known of one city's weather.
    public enum WeatherStatus: Sendable, Equatable {
        case loading
        case loaded(CityWeather)
        /// The last error; the older data is kept (and shown) when there was some.
        case failed(WeatherError, previous: CityWeather?)

        public var weather: CityWeather? {
            switch self {
            case .loading: return nil
            case let .loaded(weather): return weather
            case let .failed(_, previous): return previous
            }
        }
    }

    public struct StatusMessage: Sendable, Equatable {
        public var text: String
        public var isError: Bool

        public init(text: String, isError: Bool) {
            self.text = text
            self.isError = isError
        }
    }

    public var provider: ProviderID
    public var units: Units
    public var bookmarks: [City]
    /// Cities added by search in this run, in the order they were added.
    public var added: [City] = []
    public var weather: [Int: WeatherStatus] = [:]
    /// The selected city and the scroll position: owned here, drawn by the table view.
    public var table: TableState<Int>
    public var mode: Mode = .table
    public var status: StatusMessage?
    public var catalog: Catalog?
    public var size: TerminalSize
    /// Cities whose weather is being fetched, for the progress indicator.
    public var pending: Set<Int> = []
    public var refreshTotal = 0
    public var lastRefresh: Date?
    public var refreshInterval: TimeInterval
    /// A city to flash (added again while already shown); the serial tells one request from the next.
    public var highlightRequest: (cityID: Int, serial: Int)?
    /// Bookmark changes sent to the store and not yet answered.
    public var bookmarkWritesInFlight = 0
    /// Set when the bookmarks file can be read but not written: why no change can be saved.
    public var bookmarksReadOnly: String?
    /// The user's time zone (an IANA id), while the table has yet to offer its city.
    public var homeZone: String?

    /// The last city removed in this run, for `U`: where it stood and what it showed.
    public var lastRemoval: Removal?

    public struct Removal: Sendable, Equatable {
        public var city: City
        /// Its place among the bookmarks, or nil when it was only added in this run.
        public var bookmarkIndex: Int?
        public var addedIndex: Int?
        public var weather: WeatherStatus?
    }

    /// The order of each section on screen; the bookmarks keep their saved order underneath.
    public var sortOrder: SortOrder = .yours
    public var sortReversed = false

    public enum SortOrder: String, Sendable, CaseIterable, Codable {
        case yours
        case temperature
        case name
        /// East to west: the cities whose day is furthest on first.
        case localTime = "local time"

        public var next: SortOrder {
            let all = Self.allCases
            return all[(all.firstIndex(of: self)! + 1) % all.count]
        }
    }

    public init(provider: ProviderID, units: Units, bookmarks: [City], size: TerminalSize, refreshInterval: TimeInterval = 600) {
        self.provider = provider
        self.units = units
        self.bookmarks = bookmarks
        self.size = size
        self.refreshInterval = refreshInterval
        table = TableState(selected: bookmarks.first?.id)
    }

    public var isDemo: Bool { provider == .demo }

    public var viewPreferences: ViewPreferences {
        ViewPreferences(units: units, sortOrder: sortOrder, sortReversed: sortReversed)
    }

    /// Seconds between automatic refreshes: the configured interval, raised to keep within the
    /// provider's daily budget when the cities are many.
    public var effectiveRefreshInterval: TimeInterval {
        RefreshBudget.interval(configured: refreshInterval, cities: allCities.count, provider: provider)
    }

    /// Every city in table order: bookmarks, then those added in this run, each in the sort order.
    public var allCities: [City] { ordered(bookmarks) + ordered(added) }

    /// `cities` in the active order.
    public func ordered(_ cities: [City]) -> [City] {
        let sorted: [City]
        switch sortOrder {
        case .yours:
            sorted = cities
        case .temperature:
            // Warmest first; a city without weather yet goes last.
            sorted = cities.sorted { lhs, rhs in
                let left = weather[lhs.id]?.weather?.current.temperature ?? -.infinity
                let right = weather[rhs.id]?.weather?.current.temperature ?? -.infinity
                return left != right ? left > right : lhs.id < rhs.id
            }
        case .name:
            sorted = cities.sorted { lhs, rhs in
                let left = lhs.name.lowercased(), right = rhs.name.lowercased()
                return left != right ? left < right : lhs.id < rhs.id
            }
        case .localTime:
            sorted = cities.sorted { $0.longitude != $1.longitude ? $0.longitude > $1.longitude : $0.id < $1.id }
        }
        return sortReversed ? sorted.reversed() : sorted
    }

    /// The table's sections: bookmarks first, then the cities added in this run under a header.
    public enum Section: Hashable, Sendable {
        case bookmarks
        case added

        /// The header line's title; the bookmarks need none.
        public var title: String? { self == .added ? "added" : nil }
    }

    /// The table's lines as the view draws them, for scrolling.
    public var tableLines: [TableLine<Section, Int>] {
        // Bookmarking moves a city between the lists, so none is in both; a repeat is dropped anyway.
        var seen = Set<Int>()
        let sections: [(section: Section, items: [Int])] = [
            (.bookmarks, ordered(bookmarks).map(\.id).filter { seen.insert($0).inserted }),
            (.added, ordered(added).map(\.id).filter { seen.insert($0).inserted }),
        ]
        return TableLine.lines(sections, hasHeader: { $0.title != nil })
    }

    public func city(id: Int) -> City? {
        bookmarks.first { $0.id == id } ?? added.first { $0.id == id }
    }

    public func isBookmarked(_ id: Int) -> Bool { bookmarks.contains { $0.id == id } }

    /// The newest fetch time among the cities shown.
    public var lastUpdated: Date? {
        allCities.compactMap { weather[$0.id]?.weather?.fetchedAt }.max()
    }
}

/// The search prompt: what was typed, what matches, what is chosen.
public struct SearchState: Sendable, Equatable {
    public enum Online: Sendable, Equatable {
        case idle
        case searching
        case found(Int)
        case failed(String)
    }

    public var query: String = ""
    /// The insertion point, in characters (grapheme clusters) from the start of `query`.
    public var cursor = 0
    public var suggestions: [CityMatch] = []
    public var chosen = 0
    public var online: Online = .idle
    /// Why there are no suggestions (a bad query, the catalog still loading).
    public var note: String?

    public init() {}
}
