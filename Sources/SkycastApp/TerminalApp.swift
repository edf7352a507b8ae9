import Catalog
import Foundation
import Models
import Terminal
import Weather

/// The full-screen table: the one thread that owns the terminal runs this loop. Events come from
/// the keyboard, signals and background work (network, catalog, bookmark writes), which queue them
/// and wake the loop through the screen's self-pipe. Each event goes through `App.update`; effects
/// start background work; a frame is drawn only when something changed or an animation plays.
final class TerminalApp {
    let settings: Settings

    init(settings: Settings) {
        self.settings = settings
    }

    /// Events posted from any thread, taken by the UI loop.
    final class EventQueue: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [AppEvent] = []
        private let wakeup: Wakeup

        init(wakeup: Wakeup) { self.wakeup = wakeup }

        func post(_ event: AppEvent) {
            lock.lock()
            events.append(event)
            lock.unlock()
            wakeup.post()
        }

        func take() -> [AppEvent] {
            lock.lock(); defer { lock.unlock() }
            let taken = events
            events = []
            return taken
        }
    }

    static let frameInterval = 1.0 / 30
    static let tickInterval = 30.0
    /// The exit status after the terminal went away, as a shell's after a hang-up (128 + SIGHUP).
    static let hangupStatus: Int32 = 129
    /// How long a quitting table waits for bookmark writes still under way.
    static let bookmarkDrainSeconds = 1.0

    func run(output: CLI.Output) -> Int32 {
        let screen: NCursesScreen
        do {
            screen = try NCursesScreen(environment: settings.environment, overrides: settings.overrides, mouse: settings.mouse)
        } catch {
            output.err(error.description)
            return 1
        }
        defer { screen.end() }
        let queue = EventQueue(wakeup: screen.wakeup)
        let network = settings.makeNetworkManager()
        let store = settings.bookmarkStore
        let bookmarkWrites = DispatchQueue(label: "skycast.bookmarks")
        let view = AppView(capabilities: screen.capabilities)

        let loaded = store.load()
        var state = AppState(provider: settings.provider, units: settings.units, bookmarks: loaded.cities, size: screen.size,
                             refreshInterval: settings.refreshInterval)
        if loaded.readOnly {
            state.bookmarksReadOnly = store.readOnlyNote
            state.status = .init(text: store.readOnlyNote, isError: false)
        }
        let warnings = ([loaded.warning].compactMap { $0 } + settings.warnings)
        if !warnings.isEmpty { state.status = .init(text: warnings.joined(separator: "; "), isError: true) }

        Task.detached(priority: .utility) {
            do throws(Catalog.LoadError) {
                let catalog = try Catalog.loadBundled()
                queue.post(.catalogLoaded(catalog))
                queue.post(.catalogLoaded(catalog.loadingAlternateNames(try Catalog.bundledBytes("city-names.tsv"))))
            } catch {
                queue.post(.catalogFailed(error.description))
            }
        }

        var running = true
        var status: Int32 = 0
        defer {
            // A bookmark written just before quitting (or before the terminal vanished) must land.
            let drained = DispatchSemaphore(value: 0)
            bookmarkWrites.async { drained.signal() }
            _ = drained.wait(timeout: .now() + Self.bookmarkDrainSeconds)
        }
        func perform(_ effects: [AppEffect]) {
            for effect in effects {
                switch effect {
                case let .fetchWeather(cities, force):
                    let ids = cities.map(\.id)
                    Task {
                        for await result in network.weather(for: cities, bypassCache: force) { queue.post(.weather(result)) }
                        queue.post(.fetchFinished(ids))
                    }
                case let .geocode(query):
                    let geocoder = settings.geocoder
                    let language = settings.language
                    Task {
                        do throws(WeatherError) {
                            queue.post(.geocoded(query: query, .success(try await geocoder.search(query, language: language, network: network))))
                        } catch {
                            queue.post(.geocoded(query: query, .failure(error)))
                        }
                    }
                case let .changeBookmarks(change):
                    bookmarkWrites.async {
                        do throws(BookmarkStore.StoreError) {
                            let result = try store.apply(change)
                            queue.post(.bookmarksSaved(.success(result.cities)))
                        } catch {
                            queue.post(.bookmarksSaved(.failure(error)))
                        }
                    }
                case .redraw:
                    screen.redrawAll()
                case .quit:
                    running = false
                }
            }
        }
        func handle(_ event: AppEvent) {
            perform(App.update(&state, with: event, now: Date()))
        }

        state.lastRefresh = Date()
        perform(App.fetch(state.allCities, state: &state, force: false))
        var lastTick = Date()
        var dirty = true
        while running {
            let now = Date()
            if dirty || view.isAnimating(at: now) {
                view.render(state, on: screen, now: now)
                dirty = false
            }
            let animating = view.isAnimating(at: now)
            let untilTick = max(0, Self.tickInterval - now.timeIntervalSince(lastTick))
            let timeout = animating ? Self.frameInterval : untilTick
            if screen.wait(timeout: timeout) == .terminalLost {
                status = Self.hangupStatus
                break
            }

            for signal in screen.drainSignals() {
                switch signal {
                case .resize:
                    screen.updateSize()
                    handle(.resize(screen.size))
                    dirty = true
                case .interrupt, .terminate:
                    running = false
                case .hangup:
                    running = false
                    status = Self.hangupStatus
                case .event:
                    break
                }
            }
            for event in queue.take() {
                handle(event)
                dirty = true
            }
            for key in screen.readKeys() {
                if key == .resize {
                    screen.updateSize()
                    handle(.resize(screen.size))
                } else {
                    handle(.key(key))
                }
                dirty = true
            }
            if Date().timeIntervalSince(lastTick) >= Self.tickInterval {
                lastTick = Date()
                handle(.tick)
                dirty = true
            }
        }
        return status
    }
}
