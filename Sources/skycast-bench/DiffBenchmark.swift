import DiffableSnapshot
import Foundation
import TestFixtures

/// The cases of DifferenceKit's README benchmark, built the same way: n fresh ids; delete a range,
/// insert fresh ids at an index, shuffle a range.
enum DiffBenchmark {
    static func run() {
        // Seeded: every run diffs the same pairs.
        var rng = SeededGenerator(state: 2026)
        intCase("diff.5k.int", count: 5_000, deleted: 2_000..<3_000, insertAt: 3_000, inserted: 1_000, shuffled: 0..<200, rng: &rng)
        uuidCase("diff.5k.uuid", count: 5_000, deleted: 2_000..<3_000, insertAt: 3_000, inserted: 1_000, shuffled: 0..<200, rng: &rng)
        intCase("diff.100k.int", count: 100_000, deleted: 20_000..<30_000, insertAt: 30_000, inserted: 10_000, shuffled: 0..<2_000, rng: &rng)
        uuidCase("diff.100k.uuid", count: 100_000, deleted: 20_000..<30_000, insertAt: 30_000, inserted: 10_000, shuffled: 0..<2_000, rng: &rng)
        sectionsCase(rng: &rng)
        identicalCase()
        // Beyond DifferenceKit's cases: every row moves.
        var shuffled = Array(0..<100_000)
        shuffled.shuffle(using: &rng)
        measure("diff.100k.shuffle", old: snapshot(Array(0..<100_000)), new: snapshot(shuffled), reportMoves: true)
        measure("diff.100k.reversal", old: snapshot(Array(0..<100_000)), new: snapshot(Array((0..<100_000).reversed())), reportMoves: true)
        stdlibCase(rng: &rng)
    }

    static func edited<T>(_ source: [T], deleted: Range<Int>, insertAt: Int, inserted: [T], shuffled: Range<Int>,
                          rng: inout SeededGenerator) -> [T] {
        var target = source
        target.removeSubrange(deleted)
        target.insert(contentsOf: inserted, at: min(insertAt, target.count))
        target[shuffled].shuffle(using: &rng)
        return target
    }

    static func snapshot<T: Hashable & Sendable>(_ items: [T]) -> DiffableSnapshot<Int, T> {
        var snapshot = DiffableSnapshot<Int, T>()
        try! snapshot.appendSections([0])
        try! snapshot.appendItems(items)
        return snapshot
    }

    static func intCase(_ name: String, count: Int, deleted: Range<Int>, insertAt: Int, inserted: Int,
                        shuffled: Range<Int>, rng: inout SeededGenerator) {
        let source = Array(0..<count)
        let target = edited(source, deleted: deleted, insertAt: insertAt, inserted: Array(count..<count + inserted),
                            shuffled: shuffled, rng: &rng)
        measure(name, old: snapshot(source), new: snapshot(target), reportMoves: name == "diff.100k.int")
    }

    static func uuidCase(_ name: String, count: Int, deleted: Range<Int>, insertAt: Int, inserted: Int,
                         shuffled: Range<Int>, rng: inout SeededGenerator) {
        func uuid() -> UUID {
            UUID(uuid: withUnsafeBytes(of: (rng.next(), rng.next())) { bytes in
                (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                 bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
            })
        }
        let source = (0..<count).map { _ in uuid() }
        let target = edited(source, deleted: deleted, insertAt: insertAt, inserted: (0..<inserted).map { _ in uuid() },
                            shuffled: shuffled, rng: &rng)
        measure(name, old: snapshot(source), new: snapshot(target), reportMoves: false)
    }

    static func measure<T>(_ name: String, old: DiffableSnapshot<Int, T>, new: DiffableSnapshot<Int, T>, reportMoves: Bool) {
        var diff = SnapshotDiff<Int, T>()
        let milliseconds = medianMilliseconds { diff = new.difference(from: old) }
        report(name, milliseconds, "ms")
        if reportMoves {
            report("\(name).moves", Double(diff.movedItems.count), "moves")
            if !diff.deletedItems.isEmpty { report("\(name).deletes", Double(diff.deletedItems.count), "deletes") }
            if !diff.insertedItems.isEmpty { report("\(name).inserts", Double(diff.insertedItems.count), "inserts") }
        }
    }

    /// 100 sections × 1,000 items; each section loses and gains 50 items, shuffles 20, and 10 items
    /// per section move to the next section; sections 10 and 50 swap places.
    static func sectionsCase(rng: inout SeededGenerator) {
        var old = DiffableSnapshot<Int, Int>()
        var new = DiffableSnapshot<Int, Int>()
        try! old.appendSections(Array(0..<100))
        var layout: [[Int]] = []
        for section in 0..<100 {
            let items = Array(section * 1_000..<(section + 1) * 1_000)
            try! old.appendItems(items, toSection: section)
            layout.append(items)
        }
        var next = 100_000
        var carried: [[Int]] = Array(repeating: [], count: 100)
        for section in 0..<100 {
            var items = edited(layout[section], deleted: 100..<150, insertAt: 500,
                               inserted: Array(next..<next + 50), shuffled: 0..<20, rng: &rng)
            next += 50
            carried[(section + 1) % 100] = Array(items.suffix(10))
            items.removeLast(10)
            layout[section] = items
        }
        var order = Array(0..<100)
        order.swapAt(10, 50)
        try! new.appendSections(order)
        for section in order { try! new.appendItems(carried[section] + layout[section], toSection: section) }
        let milliseconds = medianMilliseconds { _ = new.difference(from: old) }
        report("diff.sections.100x1000", milliseconds, "ms")
    }

    static func identicalCase() {
        let items = snapshot(Array(0..<100_000))
        let copy = snapshot(Array(0..<100_000))
        let milliseconds = medianMilliseconds { _ = copy.difference(from: items) }
        report("diff.identical.100k", milliseconds, "ms")
    }

    static func stdlibCase(rng: inout SeededGenerator) {
        let source = Array(0..<5_000)
        let target = edited(source, deleted: 2_000..<3_000, insertAt: 3_000, inserted: Array(5_000..<6_000),
                            shuffled: 0..<200, rng: &rng)
        let milliseconds = medianMilliseconds(runs: 3) { _ = target.difference(from: source).inferringMoves() }
        report("diff.5k.stdlib", milliseconds, "ms")
    }
}
