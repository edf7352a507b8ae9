import Catalog
import Foundation
import SkycastCore
import Storage
import Terminal

/// The full-screen table: the one thread that owns the terminal runs this loop. It waits for a key,
/// a signal or an event posted by background work (which wakes it through the screen's self-pipe),
/// hands each to the runtime, and draws a frame only when something changed or an animation plays.
final class TerminalApp {
    let settings: Settings

    init(settings: Settings) {
        self.settings = settings
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
        let store = settings.bookmarkStore
        let runtime = Runtime(state: initialState(store: store, size: screen.size),
                              services: .live(settings: settings, network: settings.makeNetworkManager(), store: store),
                              wakeup: screen.wakeup.post, redraw: screen.redrawAll)
        defer { runtime.waitForBookmarkWrites(timeout: Self.bookmarkDrainSeconds) }
        let view = AppView(capabilities: screen.capabilities)

        runtime.send(.started)
        var status: Int32 = 0
        var lastTick = Date()
        var dirty = true
        var lastFrameAnimated = false
        var lastFrameMinute = -1
        while runtime.isRunning {
            let now = Date()
            let animating = view.isAnimating(at: now)
            // The rows' clocks turn on the minute: a frame then (ncurses sends only the digits).
            let minute = Int(now.timeIntervalSince1970 / 60)
            // One more frame after an animation ends, so that its last step does not stay on screen.
            if dirty || animating || lastFrameAnimated || minute != lastFrameMinute {
                view.render(runtime.state, on: screen, now: now)
                dirty = false
                lastFrameMinute = minute
            }
            lastFrameAnimated = animating
            let untilTick = max(0, Self.tickInterval - now.timeIntervalSince(lastTick))
            let untilMinute = 60 - now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) + 0.01
            if screen.wait(timeout: animating ? Self.frameInterval : min(untilTick, untilMinute)) == .terminalLost {
                status = Self.hangupStatus
                break
            }
            for signal in screen.drainSignals() {
                switch signal {
                case .resize:
                    screen.updateSize()
                    runtime.send(.resize(screen.size))
                    dirty = true
                case .interrupt, .terminate:
                    return status
                case .hangup:
                    return Self.hangupStatus
                case .event:
                    break
                }
            }
            if runtime.handlePostedEvents() { dirty = true }
            // Characters read together into the search prompt (a paste) are one edit, not one search each.
            var typed = ""
            func sendTyped() {
                if typed.count > 1 { runtime.send(.text(typed)) } else if let character = typed.first { runtime.send(.key(.character(character))) }
                typed = ""
            }
            for key in screen.readKeys() {
                dirty = true
                if case let .character(character) = key, case .search = runtime.state.mode {
                    typed.append(character)
                    continue
                }
                sendTyped()
                if key == .resize {
                    screen.updateSize()
                    runtime.send(.resize(screen.size))
                } else {
                    runtime.send(.key(key))
                }
            }
            sendTyped()
            if Date().timeIntervalSince(lastTick) >= Self.tickInterval {
                lastTick = Date()
                runtime.send(.tick)
                dirty = true
            }
        }
        return status
    }

    /// The user's IANA time zone: `TZ`, else what `/etc/localtime` links to. Nothing is asked of
    /// the network to guess where the user is.
    static func timeZoneIdentifier(environment: [String: String], localtime: String = "/etc/localtime") -> String? {
        if let tz = environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            return name.contains("/") && !name.hasPrefix("/") ? name : nil
        }
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtime),
              let range = target.range(of: "zoneinfo/") else { return nil }
        return String(target[range.upperBound...])
    }

    /// The state before the first frame: the saved bookmarks and what went wrong reading the files.
    private func initialState(store: BookmarkStore, size: TerminalSize) -> AppState {
        let loaded = store.load()
        var state = AppState(provider: settings.provider, units: settings.units, bookmarks: loaded.cities, size: size,
                             refreshInterval: settings.refreshInterval)
        // The units and order the table was left in (a --units flag wins).
        if let remembered = ViewPreferencesStore.standard(environment: settings.environment).load() {
            state.units = settings.unitsFlag ?? remembered.units
            state.sortOrder = remembered.sortOrder
            state.sortReversed = remembered.sortReversed
        }
        if loaded.cities.isEmpty { state.homeZone = Self.timeZoneIdentifier(environment: settings.environment) }
        // With its index built, the catalog opens in a millisecond: search works from the first frame.
        state.catalog = Catalog.openPrebuilt(indexDirectory: XDGDirectories.cache(environment: settings.environment))
        if loaded.readOnly {
            state.bookmarksReadOnly = store.readOnlyNote
            state.status = .init(text: store.readOnlyNote, isError: false)
        }
        let warnings = [loaded.warning].compactMap { $0 } + settings.warnings
        if !warnings.isEmpty { state.status = .init(text: warnings.joined(separator: "; "), isError: true) }
        return state
    }
}
