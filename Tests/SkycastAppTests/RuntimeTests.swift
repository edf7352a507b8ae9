import Catalog
import Foundation
import Models
import SkycastCore
import TestFixtures
import XCTest
@testable import SkycastApp

/// The runtime with fake services: effects become service calls, results come back as events.
final class RuntimeTests: XCTestCase {
    /// Records what the services were asked, and answers as told.
    final class FakeServices: @unchecked Sendable {
        private let lock = NSLock()
        private var _fetched: [[City]] = []
        private var _changes: [BookmarkChange] = []
        private var _catalogLoads = 0
        var failing: Set<Int> = []
        var saved: [City] = []
        var refuse: BookmarkFailure?

        var fetched: [[City]] { lock.withLock { _fetched } }
        var changes: [BookmarkChange] { lock.withLock { _changes } }
        var catalogLoads: Int { lock.withLock { _catalogLoads } }

        var services: Runtime.Services {
            Runtime.Services(
                loadCatalog: { [self] report in
                    lock.withLock { _catalogLoads += 1 }
                    report(.success(Fixtures.catalog))
                },
                fetchWeather: { [self] cities, _ in
                    lock.withLock { _fetched.append(cities) }
                    let failing = self.failing
                    return AsyncStream { continuation in
                        for city in cities {
                            continuation.yield(failing.contains(city.id)
                                ? .failure(WeatherError(.timeout(seconds: 10, attempts: 1), city: city, provider: .openMeteo))
                                : .success(Fixtures.weather(city)))
                        }
                        continuation.finish()
                    }
                },
                geocode: { query throws(WeatherError) in
                    guard query != "down" else { throw WeatherError(.offline("no route"), provider: .openMeteo) }
                    return [Fixtures.city(42, "Atlantis", "ZZ")]
                },
                changeBookmarks: { [self] change throws(BookmarkFailure) in
                    lock.withLock { _changes.append(change) }
                    if let refuse { throw refuse }
                    if case let .add(city) = change { saved.append(city) }
                    return saved
                })
        }
    }

    let posted = DispatchSemaphore(value: 0)

    func makeRuntime(_ fake: FakeServices, bookmarks: [City]) -> Runtime {
        let posted = posted
        return Runtime(state: AppState(provider: .openMeteo, units: .metric, bookmarks: bookmarks, size: TerminalSize(rows: 24, columns: 80)),
                       services: fake.services, clock: { Fixtures.now }, wakeup: { posted.signal() })
    }

    /// Handles posted events until `done` holds; fails after two seconds instead of hanging.
    func run(_ runtime: Runtime, until done: () -> Bool, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(2)
        while !done() {
            guard posted.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success else {
                return XCTFail("timed out waiting for events", file: file, line: line)
            }
            runtime.handlePostedEvents()
        }
    }

    func testStartingLoadsTheCatalogAndFetchesEveryCity() {
        let fake = FakeServices()
        fake.failing = [Fixtures.tokyo.id]
        let runtime = makeRuntime(fake, bookmarks: [Fixtures.seoul, Fixtures.tokyo])
        runtime.send(.started)
        XCTAssertEqual(runtime.state.lastRefresh, Fixtures.now)
        run(runtime) { runtime.state.catalog != nil && runtime.state.pending.isEmpty }
        XCTAssertEqual(fake.catalogLoads, 1)
        XCTAssertEqual(fake.fetched, [[Fixtures.seoul, Fixtures.tokyo]])
        XCTAssertEqual(runtime.state.weather[Fixtures.seoul.id], .loaded(Fixtures.weather(Fixtures.seoul)))
        guard case .failed = runtime.state.weather[Fixtures.tokyo.id] else { return XCTFail("the failed city keeps its row with an error") }
        XCTAssertEqual(runtime.state.status?.text, "Open-Meteo did not answer within 10 s — D: demo data for this run (or start with --demo)")
    }

    func testBookmarkWritesGoThroughTheStoreAndComeBack() {
        let fake = FakeServices()
        let runtime = makeRuntime(fake, bookmarks: [])
        runtime.send(.catalogLoaded(Fixtures.catalog))
        for key in [Key.character("/")] + "reykjav".map({ Key.character($0) }) + [.enter] { runtime.send(.key(key)) }
        run(runtime) { runtime.state.pending.isEmpty }
        let reykjavik = runtime.state.added[0]
        runtime.send(.key(.character("b")))
        XCTAssertEqual(runtime.state.bookmarkWritesInFlight, 1)
        run(runtime) { runtime.state.bookmarkWritesInFlight == 0 }
        XCTAssertEqual(fake.changes, [.add(reykjavik)])
        XCTAssertEqual(runtime.state.bookmarks, [reykjavik])
        // A refused write: the screen shows what the file holds.
        fake.refuse = BookmarkFailure(message: "cannot write: Read-only file system", onDisk: [])
        runtime.send(.key(.character("J")))
        runtime.send(.key(.character("x")))
        runtime.send(.key(.character("y")))
        run(runtime) { runtime.state.bookmarkWritesInFlight == 0 }
        XCTAssertEqual(runtime.state.status?.text, "bookmarks not saved: cannot write: Read-only file system")
        XCTAssertEqual(runtime.state.bookmarks, [], "as the file says")
        runtime.waitForBookmarkWrites(timeout: 1)
    }

    func testGeocodingQuitAndRedraw() {
        let fake = FakeServices()
        var redraws = 0
        let posted = posted
        var state = Fixtures.state(bookmarks: [Fixtures.seoul])
        state.provider = .openMeteo
        let runtime = Runtime(state: state, services: fake.services, clock: { Fixtures.now },
                              wakeup: { posted.signal() }, redraw: { redraws += 1 })
        runtime.send(.catalogLoaded(Fixtures.catalog))
        for key in [Key.character("/")] + "down".map({ Key.character($0) }) + [.tab] { runtime.send(.key(key)) }
        run(runtime) {
            if case let .search(search) = runtime.state.mode, case .failed = search.online { return true }
            return false
        }
        guard case let .search(search) = runtime.state.mode else { return XCTFail("still searching") }
        XCTAssertEqual(search.online, .failed("cannot reach Open-Meteo: no route"))
        runtime.send(.key(.escape))
        runtime.send(.key(.control("l")))
        XCTAssertEqual(redraws, 1)
        XCTAssertTrue(runtime.isRunning)
        runtime.send(.key(.character("q")))
        XCTAssertFalse(runtime.isRunning)
    }
}
