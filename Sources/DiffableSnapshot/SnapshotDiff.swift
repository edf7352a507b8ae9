/// The position of an item: its section's index and its index within that section.
public struct ItemPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }

    public static func < (lhs: ItemPath, rhs: ItemPath) -> Bool {
        lhs.section != rhs.section ? lhs.section < rhs.section : lhs.item < rhs.item
    }

    public var description: String { "[\(section), \(item)]" }
}

/// A move from an old position to a new one.
public struct Move<Index: Hashable & Sendable>: Hashable, Sendable {
    public var from: Index
    public var to: Index

    public init(from: Index, to: Index) {
        self.from = from
        self.to = to
    }
}

/// The changes that turn one snapshot into another, in UIKit batch-update coordinates:
/// deletions (and move sources) are positions in the old snapshot, insertions, reloads and move
/// destinations are positions in the new one.
///
/// Items inside a deleted section are not listed as deleted, nor items inside an inserted section as
/// inserted: the section change covers them. An item whose old section was deleted and which survives
/// in another section is an insertion; one that lands in an inserted section leaves a deletion.
public struct SnapshotDiff<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>:
    Sendable, Equatable
{
    public var deletedSections: [Int] = []
    public var insertedSections: [Int] = []
    public var movedSections: [Move<Int>] = []
    public var reloadedSections: [Int] = []
    public var deletedItems: [ItemPath] = []
    public var insertedItems: [ItemPath] = []
    public var movedItems: [Move<ItemPath>] = []
    public var reloadedItems: [ItemPath] = []
    public var reconfiguredItems: [ItemPath] = []

    public init() {}

    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty
            && reloadedSections.isEmpty && deletedItems.isEmpty && insertedItems.isEmpty
            && movedItems.isEmpty && reloadedItems.isEmpty && reconfiguredItems.isEmpty
    }
}
