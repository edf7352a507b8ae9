import XCTest
@testable import DiffableSnapshot

final class SnapshotMutationTests: XCTestCase {
    typealias Snapshot = DiffableSnapshot<String, Int>
    typealias Failure = SnapshotError<String, Int>

    private func sample() throws -> Snapshot {
        var snapshot = Snapshot()
        try snapshot.appendSections(["a", "b"])
        try snapshot.appendItems([1, 2, 3], toSection: "a")
        try snapshot.appendItems([4, 5])
        return snapshot
    }

    func testQueries() throws {
        let snapshot = try sample()
        XCTAssertEqual(snapshot.numberOfItems, 5)
        XCTAssertEqual(snapshot.numberOfSections, 2)
        XCTAssertEqual(snapshot.sectionIdentifiers, ["a", "b"])
        XCTAssertEqual(snapshot.itemIdentifiers, [1, 2, 3, 4, 5])
        XCTAssertEqual(snapshot.numberOfItems(inSection: "b"), 2)
        XCTAssertEqual(snapshot.itemIdentifiers(inSection: "a"), [1, 2, 3])
        XCTAssertEqual(snapshot.sectionIdentifier(containingItem: 4), "b")
        XCTAssertEqual(snapshot.indexOfItem(5), 4)
        XCTAssertEqual(snapshot.indexOfSection("b"), 1)
        XCTAssertNil(snapshot.indexOfItem(9))
        XCTAssertNil(snapshot.numberOfItems(inSection: "z"))
    }

    func testInsertMoveDelete() throws {
        var snapshot = try sample()
        try snapshot.insertItems([10, 11], beforeItem: 2)
        XCTAssertEqual(snapshot.itemIdentifiers, [1, 10, 11, 2, 3, 4, 5])
        try snapshot.insertItems([12], afterItem: 5)
        try snapshot.moveItem(1, afterItem: 4)
        XCTAssertEqual(snapshot.itemIdentifiers(inSection: "a"), [10, 11, 2, 3])
        XCTAssertEqual(snapshot.itemIdentifiers(inSection: "b"), [4, 1, 5, 12])
        XCTAssertEqual(snapshot.indexOfItem(1), 5)
        try snapshot.moveItem(12, beforeItem: 10)
        XCTAssertEqual(snapshot.itemIdentifiers, [12, 10, 11, 2, 3, 4, 1, 5])
        try snapshot.deleteItems([10, 5])
        XCTAssertEqual(snapshot.itemIdentifiers, [12, 11, 2, 3, 4, 1])
        XCTAssertEqual(snapshot.indexOfItem(4), 4)
        try snapshot.insertSections(["z"], beforeSection: "a")
        try snapshot.insertSections(["y"], afterSection: "a")
        XCTAssertEqual(snapshot.sectionIdentifiers, ["z", "a", "y", "b"])
        XCTAssertEqual(snapshot.indexOfItem(4), 4)
        try snapshot.moveSection("b", beforeSection: "z")
        XCTAssertEqual(snapshot.sectionIdentifiers, ["b", "z", "a", "y"])
        XCTAssertEqual(snapshot.indexOfItem(4), 0)
        XCTAssertEqual(snapshot.indexOfItem(12), 2)
        try snapshot.moveSection("b", afterSection: "y")
        XCTAssertEqual(snapshot.sectionIdentifiers, ["z", "a", "y", "b"])
        try snapshot.deleteSections(["a", "z"])
        XCTAssertEqual(snapshot.sectionIdentifiers, ["y", "b"])
        XCTAssertEqual(snapshot.itemIdentifiers, [4, 1])
        XCTAssertNil(snapshot.indexOfItem(12))
        XCTAssertEqual(snapshot.sectionIdentifier(containingItem: 1), "b")
        snapshot.deleteAllItems()
        XCTAssertEqual(snapshot.numberOfItems, 0)
        XCTAssertEqual(snapshot.numberOfSections, 2)
    }

    func testMarks() throws {
        var snapshot = try sample()
        try snapshot.reloadItems([2, 2, 4])
        try snapshot.reconfigureItems([5])
        try snapshot.reloadSections(["a"])
        XCTAssertEqual(snapshot.reloadedItemIdentifiers, [2, 4])
        XCTAssertEqual(snapshot.reconfiguredItemIdentifiers, [5])
        XCTAssertEqual(snapshot.reloadedSectionIdentifiers, ["a"])
        try snapshot.deleteItems([4])
        XCTAssertEqual(snapshot.reloadedItemIdentifiers, [2])
        XCTAssertEqual(snapshot.clearingMarks().reloadedItemIdentifiers, [])
    }

    func testAppendingOneAtATimeKeepsIndexes() throws {
        var snapshot = Snapshot()
        try snapshot.appendSections(["s"])
        for item in 0..<5_000 { try snapshot.appendItems([item]) }
        XCTAssertEqual(snapshot.indexOfItem(4_321), 4_321)
        XCTAssertEqual(snapshot.numberOfItems, 5_000)
    }

    /// Runs `mutation` on a copy, expects `expected`, and checks the copy did not change.
    private func assertRefused(_ snapshot: Snapshot, _ expected: Failure, message: String,
                               _ mutation: (inout Snapshot) throws -> Void,
                               line: UInt = #line) {
        var copy = snapshot
        do {
            try mutation(&copy)
            XCTFail("mutation was accepted", line: line)
        } catch let error as Failure {
            XCTAssertEqual(error, expected, line: line)
            XCTAssertEqual(error.description, message, line: line)
        } catch {
            XCTFail("unexpected error \(error)", line: line)
        }
        XCTAssertEqual(copy, snapshot, "snapshot changed by a refused mutation", line: line)
        XCTAssertEqual(copy.itemIdentifiers, snapshot.itemIdentifiers, line: line)
    }

    func testEveryRefusedMutationNamesTheCulpritAndChangesNothing() throws {
        let snapshot = try sample()
        assertRefused(snapshot, .duplicateSection("b", existingIndex: 1, argumentIndices: [1]),
                      message: "section b is already in the snapshot at index 1") { try $0.appendSections(["c", "b"]) }
        assertRefused(snapshot, .duplicateSection("c", existingIndex: nil, argumentIndices: [0, 2]),
                      message: "section c is given twice, at argument positions [0, 2]") { try $0.appendSections(["c", "d", "c"]) }
        assertRefused(snapshot, .sectionNotFound("q"), message: "section q is not in the snapshot") {
            try $0.insertSections(["c"], beforeSection: "q")
        }
        assertRefused(snapshot, .sectionNotFound("q"), message: "section q is not in the snapshot") {
            try $0.insertSections(["c"], afterSection: "q")
        }
        assertRefused(snapshot, .sectionNotFound("q"), message: "section q is not in the snapshot") {
            try $0.deleteSections(["a", "q"])
        }
        assertRefused(snapshot, .sectionNotFound("q"), message: "section q is not in the snapshot") {
            try $0.moveSection("q", beforeSection: "a")
        }
        assertRefused(snapshot, .sectionNotFound("q"), message: "section q is not in the snapshot") {
            try $0.moveSection("a", afterSection: "q")
        }
        assertRefused(snapshot, .sectionMovedRelativeToItself("a", index: 0),
                      message: "section a (index 0) cannot be moved relative to itself") { try $0.moveSection("a", afterSection: "a") }
        assertRefused(snapshot, .sectionNotFound("q"), message: "section q is not in the snapshot") {
            try $0.reloadSections(["q"])
        }
        assertRefused(snapshot, .duplicateItem(3, existingPath: ItemPath(section: 0, item: 2), argumentIndices: [1]),
                      message: "item 3 is already in the snapshot at section 0, item 2") { try $0.appendItems([9, 3], toSection: "b") }
        assertRefused(snapshot, .duplicateItem(9, existingPath: nil, argumentIndices: [0, 1]),
                      message: "item 9 is given twice, at argument positions [0, 1]") { try $0.appendItems([9, 9]) }
        assertRefused(snapshot, .sectionNotFound("q"), message: "section q is not in the snapshot") {
            try $0.appendItems([9], toSection: "q")
        }
        assertRefused(Snapshot(), .noSections, message: "cannot append items: the snapshot has no section") {
            try $0.appendItems([1])
        }
        assertRefused(snapshot, .itemNotFound(42), message: "item 42 is not in the snapshot") { try $0.insertItems([9], beforeItem: 42) }
        assertRefused(snapshot, .itemNotFound(42), message: "item 42 is not in the snapshot") { try $0.insertItems([9], afterItem: 42) }
        assertRefused(snapshot, .duplicateItem(1, existingPath: ItemPath(section: 0, item: 0), argumentIndices: [0]),
                      message: "item 1 is already in the snapshot at section 0, item 0") { try $0.insertItems([1], afterItem: 5) }
        assertRefused(snapshot, .itemNotFound(42), message: "item 42 is not in the snapshot") { try $0.deleteItems([1, 42]) }
        assertRefused(snapshot, .itemNotFound(42), message: "item 42 is not in the snapshot") { try $0.moveItem(42, beforeItem: 1) }
        assertRefused(snapshot, .itemNotFound(42), message: "item 42 is not in the snapshot") { try $0.moveItem(1, afterItem: 42) }
        assertRefused(snapshot, .itemMovedRelativeToItself(2, path: ItemPath(section: 0, item: 1)),
                      message: "item 2 (section 0, item 1) cannot be moved relative to itself") { try $0.moveItem(2, beforeItem: 2) }
        assertRefused(snapshot, .itemNotFound(42), message: "item 42 is not in the snapshot") { try $0.reloadItems([1, 42]) }
        assertRefused(snapshot, .itemNotFound(42), message: "item 42 is not in the snapshot") { try $0.reconfigureItems([42]) }
    }
}
