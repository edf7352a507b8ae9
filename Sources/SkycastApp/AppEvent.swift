import Catalog
import Foundation
import Models
import Terminal
import Weather

/// Something that happened: a key, a network result, a tick. The only input of `update`.
public enum AppEvent: Sendable {
    case key(Key)
    case weather(Result<CityWeather, WeatherError>)
    /// A fetch of these cities ended (every result has arrived or it was cancelled).
    case fetchFinished([Int])
    case geocoded(query: String, Result<[City], WeatherError>)
    case catalogLoaded(Catalog)
    case catalogFailed(String)
    case bookmarksSaved(Result<[City], BookmarkStore.StoreError>)
    case resize(TerminalSize)
    case tick
}

/// Work `update` asks for; the runtime does it and reports back with events.
public enum AppEffect: Sendable, Equatable {
    case fetchWeather([City], force: Bool)
    case geocode(String)
    case changeBookmarks(BookmarkStore.Change)
    case redraw
    case quit
}
