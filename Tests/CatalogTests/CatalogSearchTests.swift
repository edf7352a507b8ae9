import Models
import XCTest
@testable import Catalog

final class CatalogSearchTests: XCTestCase {
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skycast-catalog-tests")
    static let shared = Result { try Catalog.open(indexDirectory: directory) }

    static func catalog() throws -> Catalog { try shared.get() }

    func testBundledDataLoads() throws {
        let catalog = try Self.catalog()
        XCTAssertEqual(catalog.count, 34_006)
        XCTAssertEqual(catalog.city(at: 0).name, "Shanghai")
        let seoul = try XCTUnwrap(catalog.city(id: 1835848))
        XCTAssertEqual(seoul.countryName, "South Korea")
        XCTAssertEqual(seoul.timeZone, "Asia/Seoul")
        XCTAssertEqual(seoul.latitude, 37.566, accuracy: 1e-9)
        XCTAssertEqual(catalog.city(id: 3413829)?.countryName, "Iceland")
        XCTAssertNil(catalog.city(id: 0))
        XCTAssertEqual(try catalog.search("서울", limit: 1).first?.city.id, 1835848, "alternate names from the first search")
    }

    /// A qualifier that is exactly a country restricts to that country.
    func testACountryQualifierRestrictsToThatCountry() throws {
        let catalog = try Self.catalog()
        let paris = try catalog.search("Paris, FR", limit: 8)
        XCTAssertEqual(paris.first?.city.id, 2988507)
        XCTAssertTrue(paris.allSatisfy { $0.city.countryCode == "FR" }, "\(paris.map(\.city.qualifiedName))")
        XCTAssertTrue(try catalog.search("Paris, France", limit: 8).allSatisfy { $0.city.countryCode == "FR" })
        XCTAssertEqual(try catalog.search("Paris, Tex", limit: 1).first?.city.admin1, "Texas", "a prefix still qualifies by state")
        XCTAssertEqual(try catalog.search("Portland, usa", limit: 1).first?.city.countryCode, "US")
    }

    /// The data names first-level divisions: no bare GeoNames code ("Almaty, 02, KZ") reaches a row.
    func testNoAdmin1IsABareCode() throws {
        let catalog = try Self.catalog()
        let codes = (0..<catalog.count).map { catalog.city(at: $0).admin1 }
            .filter { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        XCTAssertEqual(codes, [], "\(Set(codes).prefix(10))")
        XCTAssertEqual(try catalog.search("Minsk", limit: 1).first?.city.admin1, "Minsk City")
    }

    /// query → (name, country code[, admin1]) of the expected best match.
    static let bestMatches: [(String, String, String, String?)] = [
        // Case, diacritics, width.
        ("sao paulo", "São Paulo", "BR", nil),
        ("SÃO PAULO", "São Paulo", "BR", nil),
        ("zurich", "Zürich", "CH", nil),
        ("Zürich", "Zürich", "CH", nil),
        ("MÜNCHEN", "Munich", "DE", nil),
        ("munchen", "Munich", "DE", nil),
        ("ＴＯＫＹＯ", "Tokyo", "JP", nil),
        ("reykjavik", "Reykjavík", "IS", nil),
        ("malmo", "Malmö", "SE", nil),
        ("krakow", "Kraków", "PL", nil),
        ("lodz", "Łódź", "PL", nil),
        ("  new   york ", "New York City", "US", nil),
        // Prefixes of names and of words.
        ("lond", "London", "GB", nil),
        ("janeiro", "Rio de Janeiro", "BR", nil),
        ("reyk", "Reykjavík", "IS", nil),
        ("buenos", "Buenos Aires", "AR", nil),
        ("aires", "Buenos Aires", "AR", nil),
        ("lumpur", "Kuala Lumpur", "MY", nil),
        // Alternate names in any script.
        ("서울", "Seoul", "KR", nil),
        ("東京", "Tokyo", "JP", nil),
        ("Москва", "Moscow", "RU", nil),
        ("москва", "Moscow", "RU", nil),
        ("Roma", "Rome", "IT", nil),
        ("Lisboa", "Lisbon", "PT", nil),
        ("Wien", "Vienna", "AT", nil),
        ("Praha", "Prague", "CZ", nil),
        ("北京", "Beijing", "CN", nil),
        ("Αθήνα", "Athens", "GR", nil),
        // Qualifiers.
        ("Paris, FR", "Paris", "FR", nil),
        ("Paris, Texas", "Paris", "US", "Texas"),
        ("Paris, US", "Paris", "US", "Texas"),
        ("Portland, Oregon", "Portland", "US", "Oregon"),
        ("Portland, Maine", "Portland", "US", "Maine"),
        ("Springfield, US", "Springfield", "US", "Missouri"),
        ("Springfield, Illinois", "Springfield", "US", "Illinois"),
        ("London, Canada", "London", "CA", nil),
        ("London, Ontario", "London", "CA", "Ontario"),
        ("Cambridge, GB", "Cambridge", "GB", nil),
        ("San Jose, Costa Rica", "San José", "CR", nil),
        // Typos.
        ("Lodnon", "London", "GB", nil),
        ("Toyko", "Tokyo", "JP", nil),
        ("Pairs", "Paris", "FR", nil),
        ("Berlni", "Berlin", "DE", nil),
        ("Amsterdma", "Amsterdam", "NL", nil),
        ("Sidney", "Sydney", "AU", nil),
    ]

    func testBestMatches() throws {
        let catalog = try Self.catalog()
        XCTAssertGreaterThanOrEqual(Self.bestMatches.count, 40)
        for (query, name, country, admin1) in Self.bestMatches {
            let best = try catalog.search(query, limit: 5).first
            XCTAssertEqual(best?.city.name, name, "query \(query)")
            XCTAssertEqual(best?.city.countryCode, country, "query \(query)")
            if let admin1 { XCTAssertEqual(best?.city.admin1, admin1, "query \(query)") }
        }
    }

    func testWholeNameBeatsPrefixAndTyposComeLast() throws {
        let catalog = try Self.catalog()
        XCTAssertTrue(try catalog.search("york", limit: 50).contains { $0.city.name == "New York City" && $0.kind <= .wordPrefix })
        let roma = try catalog.search("Roma", limit: 10)
        XCTAssertEqual(roma.first?.kind, .wholeName)
        XCTAssertTrue(roma.contains { $0.city.name == "Roman" && $0.kind == .namePrefix })
        let san = try catalog.search("san", limit: 6)
        XCTAssertEqual(san.map(\.kind), san.map(\.kind).sorted())
        XCTAssertTrue(san.allSatisfy { $0.city.name.hasPrefix("San") }, "own names before alternate ones: \(san.map(\.city.name))")
        XCTAssertEqual(try catalog.search("Моск", limit: 1).first?.kind, .alternateNamePrefix)
        let lodnon = try catalog.search("Lodnon", limit: 3)
        XCTAssertEqual(lodnon.first?.kind, .typo)
        let kinds = try catalog.search("pari", limit: 50).map(\.kind)
        XCTAssertEqual(kinds, kinds.sorted(), "results are ranked by kind first")
    }

    func testAmbiguousNamesRankByPopulationAndAppearOnce() throws {
        let catalog = try Self.catalog()
        for name in ["Springfield", "Portland", "San Jose"] {
            let results = try catalog.search(name, limit: 20)
            XCTAssertGreaterThan(results.count, 1, name)
            let whole = results.filter { $0.kind == .wholeName }
            XCTAssertEqual(whole.map(\.city.population), whole.map(\.city.population).sorted(by: >), name)
            XCTAssertEqual(Set(results.map(\.city.id)).count, results.count, "\(name): a city appears once")
            XCTAssertEqual(Set(whole.map(\.city.qualifiedName)).count, whole.count, "\(name): results are distinguishable")
        }
        let springfields = try catalog.search("Springfield", limit: 3).map(\.city.admin1)
        XCTAssertEqual(springfields.first, "Missouri")
        XCTAssertEqual(try catalog.search("San Jose", limit: 1).first?.city.countryCode, "US")
    }

    func testBadQueriesGiveClearAnswers() throws {
        let catalog = try Self.catalog()
        XCTAssertThrowsError(try catalog.search("")) { XCTAssertEqual($0 as? SearchQueryError, .empty) }
        XCTAssertThrowsError(try catalog.search("  \t ,FR")) { XCTAssertEqual($0 as? SearchQueryError, .empty) }
        let long = String(repeating: "a", count: 10_000)
        XCTAssertThrowsError(try catalog.search(long)) { XCTAssertEqual($0 as? SearchQueryError, .tooLong(characters: 10_000)) }
        XCTAssertEqual(try catalog.search("Lon\u{7}do\u{0}n").first?.city.name, "London", "control characters are dropped")
        XCTAssertNoThrow(try catalog.search("\u{1B}]0;pwned\u{7}\u{1B}[2J"))
        XCTAssertEqual(try catalog.search("\u{FFFD}\u{FFFD}").count, 0)
        XCTAssertEqual(try catalog.search("qqqqxxzz").count, 0)
    }

    func testOnlineResultsMergeWithoutDuplicates() throws {
        let catalog = try Self.catalog()
        let local = try catalog.search("Reykjavik", limit: 3)
        let remote = [local[0].city, City(id: 1, name: "Elsewhere", countryCode: "IS", countryName: "Iceland", admin1: "",
                                          latitude: 64, longitude: -21, timeZone: "", population: 0)]
        let merged = Catalog.merging(local: local, online: remote, limit: 10)
        XCTAssertEqual(merged.count, local.count + 1)
        XCTAssertEqual(merged.last?.kind, .online)
        XCTAssertEqual(Set(merged.map(\.city.id)).count, merged.count)
    }

    func testFolding() {
        var folder = TextFolder()
        XCTAssertEqual(folder.foldedString("São  Paulo "), "sao paulo")
        XCTAssertEqual(folder.foldedString("STRAßE"), "strasse")
        XCTAssertEqual(folder.foldedString("ＡＢＣ"), "abc")
        XCTAssertEqual(folder.foldedString("a\u{0301}\u{200F}b"), "ab")
        XCTAssertTrue(Catalog.isWithinOneEdit(Array("lodnon".utf8), Array("london".utf8)))
        XCTAssertTrue(Catalog.isWithinOneEdit(Array("toyko".utf8), Array("tokyo".utf8)))
        XCTAssertFalse(Catalog.isWithinOneEdit(Array("ldnoon".utf8), Array("london".utf8)))
        XCTAssertTrue(Catalog.isWithinOneEdit(Array("berln".utf8), Array("berlin".utf8)))
    }
}

final class TSVReaderTests: XCTestCase {
    func testDecimalsParseExactlyAsFoundationDoes() throws {
        let reader = TSVReader(bytes: try Catalog.bundledBytes("cities.tsv"))
        var checked = 0
        reader.forEachRow(columns: 9) { fields in
            for column in [5, 6] {
                XCTAssertEqual(reader.double(fields[column]), Double(reader.string(fields[column])))
                checked += 1
            }
        }
        XCTAssertEqual(checked, 68_012)
        let odd = TSVReader(bytes: Array("h\n-0.5\t1e3\t12345678901234567\t.\t\n".utf8))
        odd.forEachRow(columns: 5) { fields in
            XCTAssertEqual(odd.double(fields[0]), -0.5)
            XCTAssertEqual(odd.double(fields[1]), 1000)
            XCTAssertEqual(odd.double(fields[2]), Double("12345678901234567"))
            XCTAssertNil(odd.double(fields[3]))
            XCTAssertNil(odd.double(fields[4]))
        }
    }

    func testDamagedRowsAreSkippedAndCounted() {
        let reader = TSVReader(bytes: Array("a\tb\n1\t2\n3\n\n4\t5\t6\n7\t8\r\n".utf8))
        var rows: [String] = []
        let counts = reader.forEachRow(columns: 2) { fields in rows.append(reader.string(fields[0]) + reader.string(fields[1])) }
        XCTAssertEqual(rows, ["12", "78"])
        XCTAssertEqual(counts.rows, 2)
        XCTAssertEqual(counts.skipped, 2)
    }
}
