import Foundation
import Models
import XCTest
@testable import Catalog

/// The prebuilt index file: built once, mapped after, rebuilt when damaged, never trusted.
final class CatalogIndexTests: XCTestCase {
    var directory: URL!

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-index-\(UUID())")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    var file: URL { directory.appendingPathComponent("catalog-v\(CatalogIndexFormat.version).index") }

    func modified() throws -> Date {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
    }

    func assertSearches(_ catalog: Catalog, line: UInt = #line) throws {
        XCTAssertEqual(try catalog.search("reykjavik", limit: 1).first?.city.name, "Reykjavík", line: line)
        XCTAssertEqual(try catalog.search("東京", limit: 1).first?.city.id, 1850147, line: line)
    }

    func testTheIndexIsBuiltOnceThenMapped() throws {
        try assertSearches(try Catalog.open(indexDirectory: directory))
        let built = try modified()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        XCTAssertGreaterThan(size, 1_000_000)
        let again = try Catalog.open(indexDirectory: directory)
        XCTAssertEqual(try modified(), built, "the second open maps the file it finds")
        XCTAssertEqual(again.indexBytes, size)
        try assertSearches(again)
    }

    func testATruncatedOrDamagedHeaderIsRebuilt() throws {
        _ = try Catalog.open(indexDirectory: directory)
        let good = try Data(contentsOf: file)
        for damage in ["truncated", "magic", "version", "stamp", "section"] {
            var bytes = good
            switch damage {
            case "truncated": bytes = bytes.prefix(bytes.count / 2)
            case "magic": bytes[0] ^= 0xFF
            case "version": bytes[CatalogIndexFormat.Offset.version] &+= 1
            case "stamp": bytes[CatalogIndexFormat.Offset.stamps + 8] ^= 0x55
            default:
                // A section said to end past the file.
                bytes[CatalogIndexFormat.Offset.sections + 8 + 7] = 0x7F
            }
            try bytes.write(to: file)
            let catalog = try Catalog.open(indexDirectory: directory)
            try assertSearches(catalog)
            XCTAssertEqual(try Data(contentsOf: file), good, "\(damage): rebuilt as it was")
        }
    }

    func testADamagedBodyGivesWrongAnswersAtWorstNeverACrash() throws {
        _ = try Catalog.open(indexDirectory: directory)
        var bytes = try Data(contentsOf: file)
        // Overwrite a stretch of every section after the header with pseudo-random bytes.
        var seed: UInt64 = 42
        let sections = (0..<CatalogIndexFormat.Section.allCases.count).map { index -> Range<Int> in
            let at = CatalogIndexFormat.Offset.sections + 16 * index
            let offset = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
            let length = bytes.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)) }
            return offset..<offset + length
        }
        for section in sections where !section.isEmpty {
            for position in stride(from: section.lowerBound, to: min(section.upperBound, section.lowerBound + 4096), by: 1) {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[position] = UInt8(truncatingIfNeeded: seed >> 56)
            }
        }
        try bytes.write(to: file)
        let catalog = try Catalog.open(indexDirectory: directory)
        for query in ["a", "sa", "san", "reykjavik", "東京", "new york", "Paris, FR", "Lodnon", "zzzz", "Springfield, US"] {
            for match in try catalog.search(query, limit: 8) { _ = match.city.name }
        }
        for index in stride(from: 0, to: catalog.count, by: 97) { _ = catalog.city(at: index).qualifiedName }
        _ = catalog.city(id: 1835848)
    }

    func testAReadOnlyCacheBuildsInMemory() throws {
        // A path under a regular file can never be created, whoever runs the test.
        try Data("x".utf8).write(to: FileManager.default.temporaryDirectory.appendingPathComponent("skycast-not-a-folder-\(getpid())"))
        let blocked = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-not-a-folder-\(getpid())/cache")
        defer { try? FileManager.default.removeItem(at: blocked.deletingLastPathComponent()) }
        try assertSearches(try Catalog.open(indexDirectory: blocked))
    }
}
