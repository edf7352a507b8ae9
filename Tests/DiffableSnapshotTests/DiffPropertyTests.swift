import TestFixtures
import XCTest
@testable import DiffableSnapshot

final class DiffPropertyTests: XCTestCase {
    typealias Snapshot = DiffableSnapshot<String, Int>
    typealias Layout = [(section: String, items: [Int])]

    private func snapshot(_ layout: Layout) -> Snapshot {
        var snapshot = Snapshot()
        for (section, items) in layout {
            try! snapshot.appendSections([section])
            try! snapshot.appendItems(items, toSection: section)
        }
        return snapshot
    }

    private func layout(of snapshot: Snapshot) -> Layout {
        snapshot.sectionIdentifiers.map { ($0, snapshot.itemIdentifiers(inSection: $0)!) }
    }

    /// A random old layout and a new one derived from it: sections deleted, inserted and shuffled,
    /// items deleted, inserted, moved within and across sections.
    private func randomPair(_ rng: inout SeededGenerator) -> (Layout, Layout) {
        var nextItem = 0
        var oldLayout: Layout = []
        for index in 0..<Int.random(in: 0...5, using: &rng) {
            let count = Int.random(in: 0...12, using: &rng)
            oldLayout.append(("s\(index)", Array(nextItem..<nextItem + count)))
            nextItem += count
        }
        var newSections = oldLayout.map(\.section).filter { _ in Int.random(in: 0..<5, using: &rng) > 0 }
        for index in 0..<Int.random(in: 0...2, using: &rng) {
            newSections.insert("n\(index)", at: Int.random(in: 0...newSections.count, using: &rng))
        }
        if newSections.count > 1 && Bool.random(using: &rng) {
            let from = Int.random(in: 0..<newSections.count, using: &rng)
            let section = newSections.remove(at: from)
            newSections.insert(section, at: Int.random(in: 0...newSections.count, using: &rng))
        }
        var newItems: [String: [Int]] = [:]
        let oldSectionOf = Dictionary(uniqueKeysWithValues: oldLayout.flatMap { section, items in items.map { ($0, section) } })
        guard !newSections.isEmpty else { return (oldLayout, []) }
        for (section, items) in oldLayout {
            for item in items where Int.random(in: 0..<6, using: &rng) > 0 {
                let target = newSections.contains(section) && Int.random(in: 0..<4, using: &rng) > 0
                    ? section : newSections.randomElement(using: &rng)!
                newItems[target, default: []].append(item)
            }
        }
        for _ in 0..<Int.random(in: 0...6, using: &rng) {
            newItems[newSections.randomElement(using: &rng)!, default: []].append(nextItem)
            nextItem += 1
        }
        var newLayout: Layout = []
        for section in newSections {
            var items = newItems[section] ?? []
            // Mostly keep order; sometimes shuffle a few, sometimes all.
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: items.shuffle(using: &rng)
            case 1 where items.count > 1:
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let item = items.remove(at: Int.random(in: 0..<items.count, using: &rng))
                    items.insert(item, at: Int.random(in: 0...items.count, using: &rng))
                }
            default: break
            }
            newLayout.append((section, items))
        }
        _ = oldSectionOf
        return (oldLayout, newLayout)
    }

    /// Applies `diff` to `old` with UIKit's batch-update semantics, written independently of the
    /// engine: identities of inserted rows and sections come from `new`, as a data source would give.
    private func apply(_ diff: SnapshotDiff<String, Int>, to old: Layout, new: Layout) -> Layout? {
        let deletedSections = Set(diff.deletedSections)
        let insertedSections = Set(diff.insertedSections)
        let sectionMoveTo = Dictionary(uniqueKeysWithValues: diff.movedSections.map { ($0.to, $0.from) })
        let sectionMoveFrom = Set(diff.movedSections.map(\.from))
        guard old.count - deletedSections.count + insertedSections.count == new.count else { return nil }
        var untouchedOld = old.indices.filter { !deletedSections.contains($0) && !sectionMoveFrom.contains($0) }.makeIterator()
        var oldIndexOfNew: [Int?] = []
        for newIndex in new.indices {
            if insertedSections.contains(newIndex) { oldIndexOfNew.append(nil) }
            else if let from = sectionMoveTo[newIndex] { oldIndexOfNew.append(from) }
            else if let next = untouchedOld.next() { oldIndexOfNew.append(next) }
            else { return nil }
        }
        let deletedItems = Set(diff.deletedItems)
        let movedFrom = Set(diff.movedItems.map(\.from))
        let moveTo = Dictionary(uniqueKeysWithValues: diff.movedItems.map { ($0.to, $0.from) })
        let insertedItems = Set(diff.insertedItems)
        for path in deletedItems.union(movedFrom) where deletedSections.contains(path.section) { return nil }
        var result: Layout = []
        for newIndex in new.indices {
            guard let oldIndex = oldIndexOfNew[newIndex] else {
                result.append(new[newIndex])
                continue
            }
            var remaining = old[oldIndex].items.enumerated()
                .filter { !deletedItems.contains(ItemPath(section: oldIndex, item: $0.offset))
                    && !movedFrom.contains(ItemPath(section: oldIndex, item: $0.offset)) }
                .map(\.element).makeIterator()
            let count = new[newIndex].items.count
            var items: [Int] = []
            for position in 0..<count {
                let path = ItemPath(section: newIndex, item: position)
                if insertedItems.contains(path) {
                    items.append(new[newIndex].items[position])
                } else if let from = moveTo[path] {
                    guard old.indices.contains(from.section), old[from.section].items.indices.contains(from.item) else { return nil }
                    items.append(old[from.section].items[from.item])
                } else if let next = remaining.next() {
                    items.append(next)
                } else { return nil }
            }
            if remaining.next() != nil { return nil }
            result.append((old[oldIndex].section, items))
        }
        return result
    }

    private func lisLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices { for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) } }
        return best.max() ?? 0
    }

    /// The fewest moves any valid diff needs, computed by brute force.
    private func minimumMoves(old: Layout, new: Layout) -> (sections: Int, items: Int) {
        let oldSectionIndex = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1.section, $0) })
        let newSectionNames = Set(new.map(\.section))
        let survivingOld = new.compactMap { oldSectionIndex[$0.section] }
        let sectionMoves = survivingOld.count - lisLength(survivingOld)
        var oldPlace: [Int: (section: String, index: Int)] = [:]
        for (section, items) in old { for (index, item) in items.enumerated() { oldPlace[item] = (section, index) } }
        var itemMoves = 0
        for (section, items) in new where oldSectionIndex[section] != nil {
            var stayers: [Int] = []
            for item in items {
                guard let place = oldPlace[item], newSectionNames.contains(place.section) else { continue }
                if place.section == section { stayers.append(place.index) } else { itemMoves += 1 }
            }
            itemMoves += stayers.count - lisLength(stayers)
        }
        return (sectionMoves, itemMoves)
    }

    func testTenThousandRandomPairsApplyAndAreMinimal() {
        var rng = SeededGenerator(state: 20261129)
        var totalMoves = 0
        for pairIndex in 0..<10_000 {
            let (oldLayout, newLayout) = randomPair(&rng)
            let old = snapshot(oldLayout)
            var new = snapshot(newLayout)
            let marked = new.itemIdentifiers.filter { _ in Int.random(in: 0..<10, using: &rng) == 0 }
            try! new.reloadItems(marked)
            let diff = new.difference(from: old)
            guard let applied = apply(diff, to: oldLayout, new: newLayout) else {
                return XCTFail("pair \(pairIndex): diff does not apply: \(oldLayout) → \(newLayout): \(diff)")
            }
            XCTAssertTrue(applied.map(\.section) == newLayout.map(\.section) && applied.map(\.items) == newLayout.map(\.items),
                          "pair \(pairIndex): \(oldLayout) → \(newLayout) gave \(applied)")
            let minimum = minimumMoves(old: oldLayout, new: newLayout)
            XCTAssertEqual(diff.movedSections.count, minimum.sections, "pair \(pairIndex)")
            XCTAssertEqual(diff.movedItems.count, minimum.items, "pair \(pairIndex)")
            totalMoves += diff.movedItems.count
            let expectedReloads = marked.compactMap { item -> ItemPath? in
                guard let path = new.pathOfItem(item), !diff.insertedSections.contains(path.section),
                      !diff.insertedItems.contains(path) else { return nil }
                return path
            }
            XCTAssertEqual(Set(diff.reloadedItems), Set(expectedReloads), "pair \(pairIndex)")
            XCTAssertEqual(new.difference(from: old), diff, "pair \(pairIndex): not deterministic")
            XCTAssertTrue(new.clearingMarks().difference(from: new).isEmpty)
        }
        XCTAssertGreaterThan(totalMoves, 1_000, "the generator should exercise moves")
    }

    func testContentChangesAreReconfiguredAtNewPaths() throws {
        let old = snapshot([("a", [1, 2, 3]), ("b", [4])])
        var new = snapshot([("a", [3, 1]), ("b", [4, 2, 5])])
        try new.reconfigureItems([4])
        let diff = new.difference(from: old, isContentEqual: { $0 != 1 && $0 != 2 && $0 != 5 })
        XCTAssertEqual(diff.reconfiguredItems, [ItemPath(section: 0, item: 1), ItemPath(section: 1, item: 0), ItemPath(section: 1, item: 1)])
        XCTAssertEqual(diff.insertedItems, [ItemPath(section: 1, item: 2)])
        XCTAssertEqual(diff.movedItems, [Move(from: ItemPath(section: 0, item: 2), to: ItemPath(section: 0, item: 0)),
                                         Move(from: ItemPath(section: 0, item: 1), to: ItemPath(section: 1, item: 1))])
        XCTAssertTrue(diff.deletedItems.isEmpty)
    }

    func testSectionReloadAndDeletionCoverTheirItems() throws {
        let old = snapshot([("a", [1, 2]), ("b", [3]), ("c", [4])])
        var new = snapshot([("c", [4, 1]), ("d", [3]), ("b", [])])
        try new.reloadSections(["c"])
        let diff = new.difference(from: old)
        XCTAssertEqual(diff.deletedSections, [0])
        XCTAssertEqual(diff.insertedSections, [1])
        XCTAssertEqual(diff.movedSections, [Move(from: 2, to: 0)])  // one move either way; c is the one chosen
        XCTAssertEqual(diff.reloadedSections, [0])
        // 1 came from the deleted section a: an insertion. 3 went into the inserted section d: its old copy is deleted.
        XCTAssertEqual(diff.insertedItems, [ItemPath(section: 0, item: 1)])
        XCTAssertEqual(diff.deletedItems, [ItemPath(section: 1, item: 0)])
        XCTAssertTrue(diff.movedItems.isEmpty)
    }

    func testLongestIncreasingSubsequenceMask() {
        XCTAssertEqual(longestIncreasingSubsequenceMask([]), [])
        XCTAssertEqual(longestIncreasingSubsequenceMask([3, 1, 2]), [false, true, true])
        XCTAssertEqual(longestIncreasingSubsequenceMask([0, 1, 2]), [true, true, true])
        XCTAssertEqual(longestIncreasingSubsequenceMask([5, 4, 3]).filter { $0 }.count, 1)
    }
}
