import CNCursesw
import Catalog
import Foundation
import Models
import SkycastApp
import SkycastCore
import Terminal
import Weather

/// Draws the app's frames (AppView from AppState, as the table does) on the real ncurses screen of a
/// pseudo-terminal at 100×30, and counts the bytes each kind of update sends to the terminal.
enum RenderBenchmark {
    /// Counts what the terminal side of the pty receives, on its own thread so that ncurses never
    /// blocks on a full pty buffer.
    final class ByteCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var total = 0
        let descriptor: Int32

        init(descriptor: Int32) {
            self.descriptor = descriptor
            Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count <= 0 { break }
                    lock.lock(); total += count; lock.unlock()
                }
            }.start()
        }

        /// Bytes received since the last call, once the pty has gone quiet.
        func take() -> Int {
            var last = -1
            var current = 0
            while current != last {
                last = current
                usleep(15_000)
                lock.lock(); current = total; lock.unlock()
            }
            lock.lock(); defer { lock.unlock() }
            let value = total
            total = 0
            return value
        }
    }

    static func run() {
        var master: Int32 = 0
        var slave: Int32 = 0
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else {
            FileHandle.standardError.write(Data("skycast-bench: openpty failed\n".utf8))
            return
        }
        let counter = ByteCounter(descriptor: master)
        let environment = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
        let screen: NCursesScreen
        let catalog: Catalog
        do {
            screen = try NCursesScreen(environment: environment, overrides: .init(), input: slave, output: slave, mouse: false)
            catalog = try Catalog.open(indexDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("skycast-bench-catalog"))
        } catch {
            FileHandle.standardError.write(Data("skycast-bench: \(error)\n".utf8))
            return
        }
        // The app's own frames: 20 bookmarked cities with weather, drawn by AppView from AppState
        // as the table does, title and status bar included.
        let start = Date(timeIntervalSince1970: 1_764_417_600)
        var now = start
        let cities = (0..<20).map(catalog.city(at:))
        var state = AppState(provider: .openMeteo, units: .metric, bookmarks: cities, size: screen.size)
        let demo = DemoProvider()
        func weather(_ city: City, at time: Date) -> CityWeather { try! demo.weather(for: city, at: time) }
        for city in cities { state.weather[city.id] = .loaded(weather(city, at: start)) }
        _ = App.update(&state, with: .catalogLoaded(catalog), now: now)
        let view = AppView(capabilities: screen.capabilities)
        var cpuTimes: [Double] = []
        func frame() {
            let cpu = cpuSeconds()
            view.render(state, on: screen, now: now)
            cpuTimes.append((cpuSeconds() - cpu) * 1e6)
        }
        /// Frames at 30 fps while an animation plays, as the loop draws them.
        func playAnimations() {
            frame()
            while view.isAnimating(at: now) {
                now += 1.0 / 30
                frame()
            }
        }
        func send(_ event: AppEvent) {
            _ = App.update(&state, with: event, now: now)
            playAnimations()
        }

        frame()
        report("render.app.first_paint.bytes", Double(counter.take()), "B")
        frame()
        report("render.app.identical_frame.bytes", Double(counter.take()), "B")

        // Ten minutes on: one city's refresh brings new figures.
        now = start.addingTimeInterval(600)
        frame()
        _ = counter.take()
        send(.weather(.success(weather(cities[3], at: now))))
        report("render.app.refresh_one_city.bytes", Double(counter.take()), "B")

        for city in cities { _ = App.update(&state, with: .weather(.success(weather(city, at: now.addingTimeInterval(3600)))), now: now) }
        playAnimations()
        report("render.app.refresh_20_cities.bytes", Double(counter.take()), "B")

        // Search: each key draws a frame, as in the table; then Enter closes the prompt, the row
        // fades in and its weather arrives.
        for key in [Key.character("/")] + "reykjav".map({ Key.character($0) }) { send(.key(key)) }
        report("render.app.search_typing.bytes", Double(counter.take()), "B")
        send(.key(.enter))
        if let added = state.added.last { send(.weather(.success(weather(added, at: now)))) }
        report("render.app.search_insert.bytes", Double(counter.take()), "B")

        // One bookmark moved down a place.
        send(.key(.character("g")))
        _ = counter.take()
        send(.key(.character("J")))
        report("render.app.bookmark_move.bytes", Double(counter.take()), "B")

        _ = cn_set_window_size(slave, 24, 80)
        screen.updateSize()
        send(.resize(screen.size))
        report("render.app.resize.bytes", Double(counter.take()), "B")
        report("render.app.frame.cpu_us", median(cpuTimes), "us")
        screen.end()
        close(slave)
        close(master)
    }
}
