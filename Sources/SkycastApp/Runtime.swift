import Catalog
import Foundation
import Models
import SkycastCore
import Storage
import Weather

/// Runs the app's one-way flow: every event goes through `App.update`, and the effects it returns
/// are performed here with the services given, their results coming back as events. It owns the
/// state; the full-screen loop owns one runtime and draws its state, tests drive one with fakes.
///
/// Not thread-safe: create and use it on the UI thread. Background work reports through `post`,
/// which any thread may call.
public final class Runtime {
    /// What effects need from the world. `live` wires the real ones; tests pass fakes.
    public struct Services: Sendable {
        /// The catalog, reported once it can search.
        public var loadCatalog: @Sendable (_ report: @escaping @Sendable (Result<Catalog, Catalog.LoadError>) -> Void) -> Void
        /// One result per city, as each arrives.
        public var fetchWeather: @Sendable (_ cities: [City], _ force: Bool) -> AsyncStream<Result<CityWeather, WeatherError>>
        public var geocode: @Sendable (_ query: String) async throws(WeatherError) -> [City]
        /// Applies a change to the saved bookmarks and returns them as saved. Runs on a serial queue.
        public var changeBookmarks: @Sendable (BookmarkChange) throws(BookmarkFailure) -> [City]
        /// Remembers the view's choices for the next run (best effort).
        public var rememberView: @Sendable (ViewPreferences) -> Void = { _ in }
        /// From now on, fetch simulated weather instead of the service's.
        public var useDemoData: @Sendable () -> Void = {}

        public init(loadCatalog: @escaping @Sendable (_ report: @escaping @Sendable (Result<Catalog, Catalog.LoadError>) -> Void) -> Void,
                    fetchWeather: @escaping @Sendable ([City], Bool) -> AsyncStream<Result<CityWeather, WeatherError>>,
                    geocode: @escaping @Sendable (String) async throws(WeatherError) -> [City],
                    changeBookmarks: @escaping @Sendable (BookmarkChange) throws(BookmarkFailure) -> [City]) {
            self.loadCatalog = loadCatalog
            self.fetchWeather = fetchWeather
            self.geocode = geocode
            self.changeBookmarks = changeBookmarks
        }
    }

    public private(set) var state: AppState
    /// False once an effect asked to quit.
    public private(set) var isRunning = true
    private let services: Services
    private let events: EventQueue
    private let clock: () -> Date
    private let redraw: () -> Void
    private let bookmarkWrites = DispatchQueue(label: "skycast.bookmarks")

    /// - Parameters:
    ///   - wakeup: called after an event is posted from another thread (the loop's self-pipe).
    ///   - redraw: repaints the whole screen on the next frame (Ctrl-L).
    public init(state: AppState, services: Services, clock: @escaping () -> Date = Date.init,
                wakeup: @escaping @Sendable () -> Void = {}, redraw: @escaping () -> Void = {}) {
        self.state = state
        self.services = services
        self.clock = clock
        self.redraw = redraw
        events = EventQueue(wakeup: wakeup)
    }

    /// Handles `event` now: update, then its effects.
    public func send(_ event: AppEvent) {
        perform(App.update(&state, with: event, now: clock()))
    }

    /// Handles the events background work has posted; returns whether there were any.
    @discardableResult
    public func handlePostedEvents() -> Bool {
        let posted = events.take()
        posted.forEach(send)
        return !posted.isEmpty
    }

    /// Waits, at most `timeout`, for the bookmark writes under way: a change made just before
    /// quitting must land.
    public func waitForBookmarkWrites(timeout: TimeInterval) {
        let drained = DispatchSemaphore(value: 0)
        bookmarkWrites.async { drained.signal() }
        _ = drained.wait(timeout: .now() + timeout)
    }

    private func perform(_ effects: [AppEffect]) {
        let post = events.post
        for effect in effects {
            switch effect {
            case .loadCatalog:
                services.loadCatalog { result in
                    switch result {
                    case let .success(catalog): post(.catalogLoaded(catalog))
                    case let .failure(error): post(.catalogFailed(error.description))
                    }
                }
            case let .fetchWeather(cities, force):
                let stream = services.fetchWeather(cities, force)
                Task {
                    for await result in stream { post(.weather(result)) }
                    post(.fetchFinished(cities.map(\.id)))
                }
            case let .geocode(query):
                let geocode = services.geocode
                Task {
                    do throws(WeatherError) {
                        post(.geocoded(query: query, .success(try await geocode(query))))
                    } catch {
                        post(.geocoded(query: query, .failure(error)))
                    }
                }
            case let .changeBookmarks(change):
                let apply = services.changeBookmarks
                bookmarkWrites.async {
                    do throws(BookmarkFailure) {
                        post(.bookmarksSaved(.success(try apply(change))))
                    } catch {
                        post(.bookmarksSaved(.failure(error)))
                    }
                }
            case .useDemoData:
                services.useDemoData()
            case let .rememberView(preferences):
                let remember = services.rememberView
                bookmarkWrites.async { remember(preferences) }
            case .redraw:
                redraw()
            case .quit:
                isRunning = false
            }
        }
    }
}

extension Runtime.Services {
    /// The real services: the bundled catalog, the network manager, the geocoder, the bookmark file.
    public static func live(settings: Settings, network: NetworkManager, store: BookmarkStore) -> Runtime.Services {
        let geocoder = settings.geocoder
        let language = settings.language
        let preferences = ViewPreferencesStore.standard(environment: settings.environment)
        let demo = DemoSwitch()
        let demoNetwork = NetworkManager(provider: DemoProvider())
        var services = Runtime.Services(
            loadCatalog: { report in
                let directory = XDGDirectories.cache(environment: settings.environment)
                // Mapping the index takes a millisecond; building it (first run, new data) longer.
                Task.detached(priority: .userInitiated) {
                    do throws(Catalog.LoadError) {
                        report(.success(try Catalog.open(indexDirectory: directory)))
                    } catch {
                        report(.failure(error))
                    }
                }
            },
            fetchWeather: { cities, force in
                demo.isOn ? demoNetwork.weather(for: cities) : network.weather(for: cities, bypassCache: force)
            },
            geocode: { query throws(WeatherError) in try await geocoder.search(query, language: language, network: network) },
            changeBookmarks: { change throws(BookmarkFailure) in try store.apply(change).cities })
        services.rememberView = { preferences.save($0) }
        services.useDemoData = { demo.isOn = true }
        return services
    }
}

/// Whether the live services fetch simulated weather (`D` in the table).
final class DemoSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var on = false

    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }
}

/// Events posted from any thread, taken by the UI thread.
final class EventQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [AppEvent] = []
    private let wakeup: @Sendable () -> Void

    init(wakeup: @escaping @Sendable () -> Void) {
        self.wakeup = wakeup
    }

    @Sendable func post(_ event: AppEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
        wakeup()
    }

    func take() -> [AppEvent] {
        lock.lock()
        defer { lock.unlock() }
        let taken = events
        events = []
        return taken
    }
}
