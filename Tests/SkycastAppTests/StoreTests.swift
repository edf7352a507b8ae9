import Catalog
import Foundation
import Models
import SkycastCore
import Storage
import TestFixtures
import Weather
import XCTest
@testable import SkycastApp

final class StoreTests: XCTestCase {
    var directory: URL!

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-store-\(UUID())")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func testBookmarksPersistInOrder() throws {
        let store = BookmarkStore(file: directory.appendingPathComponent("skycast/bookmarks.json"))
        XCTAssertEqual(store.load(), BookmarkStore.Loaded(cities: []))
        _ = try store.apply(.add(Fixtures.seoul))
        _ = try store.apply(.add(Fixtures.tokyo))
        _ = try store.apply(.add(Fixtures.seoul))
        _ = try store.apply(.add(Fixtures.zurich))
        XCTAssertEqual(try store.apply(.move(cityID: Fixtures.zurich.id, toIndex: 0)).cities.map(\.id),
                       [Fixtures.zurich.id, Fixtures.seoul.id, Fixtures.tokyo.id])
        _ = try store.apply(.remove(cityID: Fixtures.seoul.id))
        let reloaded = BookmarkStore(file: store.file).load()
        XCTAssertEqual(reloaded.cities, [Fixtures.zurich, Fixtures.tokyo], "names in any script survive the round trip")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.file.deletingLastPathComponent().path)
        XCTAssertFalse(leftovers.contains { $0.contains(".tmp-") }, "no temporary file is left behind")
    }

    func testAHandEditedFileWithRepeatsLoadsEachCityOnce() throws {
        let store = BookmarkStore(file: directory.appendingPathComponent("bookmarks.json"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let city = try String(decoding: JSONEncoder().encode(Fixtures.seoul), as: UTF8.self)
        try Data("{\"version\":1,\"bookmarks\":[\(city),\(city)]}".utf8).write(to: store.file)
        XCTAssertEqual(store.load().cities, [Fixtures.seoul])
    }

    func testACorruptFileIsKeptAsideAndReported() throws {
        let store = BookmarkStore(file: directory.appendingPathComponent("bookmarks.json"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{\"version\":1,\"bookmarks\":[{\"id\":".utf8).write(to: store.file)
        let loaded = store.load()
        XCTAssertEqual(loaded.cities, [])
        XCTAssertTrue(loaded.warning?.hasPrefix("bookmarks.json was corrupt; kept as bookmarks.json.corrupt-") ?? false)
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("bookmarks.json.corrupt-") }
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent(kept[0]), encoding: .utf8), "{\"version\":1,\"bookmarks\":[{\"id\":")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.file.path))
    }

    func testCorruptionsWithinOneSecondLeaveOneCopyEach() throws {
        let store = BookmarkStore(file: directory.appendingPathComponent("bookmarks.json"))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for attempt in 1...3 {
            try Data("corrupt \(attempt)".utf8).write(to: store.file)
            XCTAssertNotNil(store.load().warning)
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("bookmarks.json.corrupt-") }
        XCTAssertEqual(kept.count, 3, "no kept-aside copy is refused or replaced: \(kept)")
        let contents = try Set(kept.map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) })
        XCTAssertEqual(contents, ["corrupt 1", "corrupt 2", "corrupt 3"])
    }

    func testKeepingAsideNumbersTakenNames() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("bookmarks.json")
        var names: [String] = []
        for attempt in 1...3 {
            try Data("copy \(attempt)".utf8).write(to: file)
            names.append(try AtomicFile.keepAside(file, suffix: "corrupt-20261129-120000").lastPathComponent)
        }
        XCTAssertEqual(names, ["bookmarks.json.corrupt-20261129-120000", "bookmarks.json.corrupt-20261129-120000-2",
                               "bookmarks.json.corrupt-20261129-120000-3"])
        XCTAssertEqual(try String(contentsOf: directory.appendingPathComponent(names[0]), encoding: .utf8), "copy 1")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    func testAFailedWriteReportsWhatTheFileHolds() throws {
        let store = BookmarkStore(file: directory.appendingPathComponent("bookmarks.json"))
        _ = try store.apply(.add(Fixtures.seoul))
        // A directory where the temporary file must go makes the write fail (even for root).
        try FileManager.default.createDirectory(at: directory.appendingPathComponent(".bookmarks.json.tmp-\(getpid())"),
                                                withIntermediateDirectories: true)
        XCTAssertThrowsError(try store.apply(.add(Fixtures.tokyo))) { error in
            let failure = error as? BookmarkFailure
            XCTAssertEqual(failure?.onDisk, [Fixtures.seoul])
            XCTAssertTrue(failure?.message.hasPrefix("cannot write \(store.file.path): ") ?? false, failure?.message ?? "")
        }
        XCTAssertEqual(store.load().cities, [Fixtures.seoul])
    }

    func testTwoInstancesKeepEachOthersBookmarks() throws {
        let file = directory.appendingPathComponent("bookmarks.json")
        let first = BookmarkStore(file: file)
        let second = BookmarkStore(file: file)
        let cities = (0..<40).map { Fixtures.city(1000 + $0, "City \($0)", "XX") }
        DispatchQueue.concurrentPerform(iterations: cities.count) { index in
            _ = try? (index % 2 == 0 ? first : second).apply(.add(cities[index]))
        }
        XCTAssertEqual(Set(first.load().cities.map(\.id)), Set(cities.map(\.id)))
    }

    func testAnUnwritableDirectoryIsAClearError() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let blocker = directory.appendingPathComponent("skycast")
        try Data("a file where the directory should be".utf8).write(to: blocker)
        let store = BookmarkStore(file: blocker.appendingPathComponent("bookmarks.json"))
        XCTAssertThrowsError(try store.apply(.add(Fixtures.seoul))) { error in
            XCTAssertTrue((error as? BookmarkFailure)?.message.hasPrefix("cannot create") ?? false, "\(error)")
        }
    }

    func testConfigFieldsAndProblems() {
        let good = Config.parse(Data(#"{"provider":"openweathermap","units":"imperial","api_key":"k","refresh_interval":300,"animation":false,"icons":"ascii"}"#.utf8))
        XCTAssertEqual(good.problems, [])
        XCTAssertEqual(good.config.provider, .openWeatherMap)
        XCTAssertEqual(good.config.units, .imperial)
        XCTAssertEqual(good.config.apiKey, "k")
        XCTAssertEqual(good.config.refreshInterval, 300)
        XCTAssertEqual(good.config.animation, false)
        XCTAssertEqual(good.config.ascii, true)
        let bad = Config.parse(Data(#"{"units":"kelvin","refresh_interval":5,"colour":1,"animation":"yes"}"#.utf8))
        XCTAssertEqual(bad.problems, [
            "config.json: field \"animation\" must be true or false; ignored",
            "config.json: unknown field \"colour\"; ignored",
            "config.json: field \"refresh_interval\" must be a number of seconds from 60 to 86400; ignored",
            "config.json: field \"units\" must be \"metric\" or \"imperial\"; ignored",
        ])
        XCTAssertNil(bad.config.units)
        XCTAssertEqual(Config.parse(Data("[1,2]".utf8)).problems, ["config.json is not a JSON object; using the defaults"])
    }

    func testSettingsLayerFlagsOverConfigOverDefaults() throws {
        let config = directory.appendingPathComponent("skycast")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"units":"imperial","provider":"openweathermap","api_key":"from-config"}"#.utf8).write(to: config.appendingPathComponent("config.json"))
        let environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
        var settings = try Settings.resolve(Options(), environment: environment)
        XCTAssertEqual(settings.units, .imperial)
        XCTAssertEqual(settings.provider, .openWeatherMap)
        XCTAssertEqual(settings.apiKey, "from-config")
        settings = try Settings.resolve(try Options.parse(["--demo", "--units", "metric"]),
                                        environment: environment.merging(["OPENWEATHERMAP_API_KEY": "env"]) { $1 })
        XCTAssertEqual(settings.provider, .demo)
        XCTAssertEqual(settings.units, .metric)
        XCTAssertEqual(settings.apiKey, "env")
        XCTAssertThrowsError(try Settings.resolve(Options(), environment: ["SKYCAST_OPEN_METEO_URL": "http://10.0.0.1"]))
    }

    func testConfigMessagesSayWhatIsWrongAndWhere() {
        XCTAssertEqual(Config.parse(Data("{\n  \"units\": \"metric\",\n  \"provider\": ".utf8)).problems,
                       ["config.json: malformed JSON (line 3); using the defaults"])
        XCTAssertEqual(Config.parse(Data("{\n \"a\": 1,\n \"b\": tru\n}".utf8)).problems, ["config.json: malformed JSON (line 3); using the defaults"])
        XCTAssertEqual(Config.parse(Data("[1, 2]".utf8)).problems, ["config.json is not a JSON object; using the defaults"])
        XCTAssertNil(JSONSyntax.errorLine(in: Array(#"{"a": [1, -2.5e3, true, null, "x\"y"], "b": {}}"#.utf8)))
    }

    func testFileErrorsSpeakPlainly() throws {
        // A folder where the file should be: reading it fails with the system's words.
        let store = BookmarkStore(file: directory.appendingPathComponent("bookmarks.json"))
        try FileManager.default.createDirectory(at: store.file, withIntermediateDirectories: true)
        let loaded = store.load()
        XCTAssertFalse(loaded.warning?.contains("NSCocoaErrorDomain") ?? true, loaded.warning ?? "")
        XCTAssertFalse(loaded.warning?.contains("error 2") ?? true)
    }
}
