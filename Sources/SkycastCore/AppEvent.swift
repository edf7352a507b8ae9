import Catalog
import Foundation
import Models

/// Something that happened: a key, a network result, a tick. The only input of `update`.
public enum AppEvent: Sendable {
    /// The table is on screen: time to start loading.
    case started
    case key(Key)
    /// Several characters read at once (a paste): one edit of the search prompt.
    case text(String)
    case weather(Result<CityWeather, WeatherError>)
    /// A fetch of these cities ended (every result has arrived or it was cancelled).
    case fetchFinished([Int])
    case geocoded(query: String, Result<[City], WeatherError>)
    case catalogLoaded(Catalog)
    case catalogFailed(String)
    case bookmarksSaved(Result<[City], BookmarkFailure>)
    case resize(TerminalSize)
    case tick
}

/// Work `update` asks for; the runtime does it and reports back with events.
public enum AppEffect: Sendable, Equatable {
    case loadCatalog
    case fetchWeather([City], force: Bool)
    case geocode(String)
    case changeBookmarks(BookmarkChange)
    /// Remember the view's choices (units, order) for the next run.
    case rememberView(ViewPreferences)
    /// Fetch simulated weather from now on (this run only).
    case useDemoData
    case redraw
    case quit
}

/// What the table remembers between runs (config.json stays the user's own).
public struct ViewPreferences: Codable, Sendable, Equatable {
    public var units: Units
    public var sortOrder: AppState.SortOrder
    public var sortReversed: Bool

    public init(units: Units, sortOrder: AppState.SortOrder, sortReversed: Bool) {
        self.units = units
        self.sortOrder = sortOrder
        self.sortReversed = sortReversed
    }
}

/// A change to the saved bookmarks.
public enum BookmarkChange: Sendable, Equatable {
    case add(City)
    case remove(cityID: Int)
    case move(cityID: Int, toIndex: Int)
}

/// Why bookmarks could not be read or saved.
public struct BookmarkFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// The bookmarks the file holds after a failed change, when it could be read: what the screen
    /// must show so that it never pretends the change was saved.
    public var onDisk: [City]?

    public init(message: String, onDisk: [City]? = nil) {
        self.message = message
        self.onDisk = onDisk
    }

    public var description: String { message }
}
