/// An ordered list of sections, each an ordered list of unique items: the state a table shows.
///
/// Modelled on `NSDiffableDataSourceSnapshot`. Identifiers are unique across the whole snapshot.
/// Lookups (`indexOfItem`, `sectionIdentifier(containingItem:)`, …) are O(1) or O(#sections);
/// appending items one at a time is O(1) amortised. Mutations that would be invalid throw a
/// `SnapshotError` and leave the snapshot unchanged.
public struct DiffableSnapshot<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>:
    Sendable, Equatable
{
    public typealias Section = SectionIdentifierType
    public typealias Item = ItemIdentifierType
    public typealias Error = SnapshotError<Section, Item>

    /// Where an item lives: its section's index and its index in that section.
    struct Slot: Sendable {
        var section: Int
        var index: Int
    }

    private(set) var sections: [Section] = []
    private(set) var sectionItems: [[Item]] = []
    /// `sectionOffsets[s]` is the number of items before section `s`.
    private(set) var sectionOffsets: [Int] = []
    private(set) var sectionPositions: [Section: Int] = [:]
    private(set) var itemSlots: [Item: Slot] = [:]

    private var reloadedItems: [Item] = []
    private var reloadedItemSet: Set<Item> = []
    private var reconfiguredItems: [Item] = []
    private var reconfiguredItemSet: Set<Item> = []
    private(set) var reloadedSections: [Section] = []
    private var reloadedSectionSet: Set<Section> = []

    public init() {}

    // MARK: - Queries

    public var numberOfItems: Int { itemSlots.count }
    public var numberOfSections: Int { sections.count }
    public var sectionIdentifiers: [Section] { sections }
    /// All items, section after section. O(result).
    public var itemIdentifiers: [Item] { Array(sectionItems.joined()) }

    public func numberOfItems(inSection section: Section) -> Int? {
        sectionPositions[section].map { sectionItems[$0].count }
    }

    public func itemIdentifiers(inSection section: Section) -> [Item]? {
        sectionPositions[section].map { sectionItems[$0] }
    }

    public func sectionIdentifier(containingItem item: Item) -> Section? {
        itemSlots[item].map { sections[$0.section] }
    }

    /// The item's index in `itemIdentifiers`.
    public func indexOfItem(_ item: Item) -> Int? {
        itemSlots[item].map { sectionOffsets[$0.section] + $0.index }
    }

    /// The item's section index and index within that section.
    public func pathOfItem(_ item: Item) -> ItemPath? {
        itemSlots[item].map { ItemPath(section: $0.section, item: $0.index) }
    }

    public func indexOfSection(_ section: Section) -> Int? { sectionPositions[section] }

    public func item(at path: ItemPath) -> Item? {
        guard sectionItems.indices.contains(path.section),
              sectionItems[path.section].indices.contains(path.item) else { return nil }
        return sectionItems[path.section][path.item]
    }

    public func contains(_ item: Item) -> Bool { itemSlots[item] != nil }

    public var reloadedItemIdentifiers: [Item] { reloadedItems }
    public var reconfiguredItemIdentifiers: [Item] { reconfiguredItems }
    public var reloadedSectionIdentifiers: [Section] { reloadedSections }

    func isReloaded(_ item: Item) -> Bool { !reloadedItemSet.isEmpty && reloadedItemSet.contains(item) }
    func isReconfigured(_ item: Item) -> Bool { !reconfiguredItemSet.isEmpty && reconfiguredItemSet.contains(item) }
    func isReloaded(section: Section) -> Bool { reloadedSectionSet.contains(section) }
    var hasItemMarks: Bool { !reloadedItemSet.isEmpty || !reconfiguredItemSet.isEmpty }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sections == rhs.sections && lhs.sectionItems == rhs.sectionItems
            && lhs.reloadedItems == rhs.reloadedItems && lhs.reconfiguredItems == rhs.reconfiguredItems
            && lhs.reloadedSections == rhs.reloadedSections
    }

    // MARK: - Sections

    public mutating func appendSections(_ identifiers: [Section]) throws(Error) {
        try insertSections(identifiers, at: sections.count)
    }

    public mutating func insertSections(_ identifiers: [Section], beforeSection target: Section) throws(Error) {
        guard let index = sectionPositions[target] else { throw .sectionNotFound(target) }
        try insertSections(identifiers, at: index)
    }

    public mutating func insertSections(_ identifiers: [Section], afterSection target: Section) throws(Error) {
        guard let index = sectionPositions[target] else { throw .sectionNotFound(target) }
        try insertSections(identifiers, at: index + 1)
    }

    public mutating func deleteSections(_ identifiers: [Section]) throws(Error) {
        var doomed = Set<Int>()
        for id in identifiers {
            guard let index = sectionPositions[id] else { throw .sectionNotFound(id) }
            doomed.insert(index)
        }
        guard !doomed.isEmpty else { return }
        for index in doomed {
            for item in sectionItems[index] { itemSlots[item] = nil }
            let section = sections[index]
            sectionPositions[section] = nil
            if reloadedSectionSet.remove(section) != nil { reloadedSections.removeAll { $0 == section } }
        }
        var keptSections: [Section] = []
        var keptItems: [[Item]] = []
        for index in sections.indices where !doomed.contains(index) {
            keptSections.append(sections[index])
            keptItems.append(sectionItems[index])
        }
        let firstChanged = doomed.min()!
        sections = keptSections
        sectionItems = keptItems
        renumberSections(from: firstChanged)
        dropMarksOfRemovedItems()
    }

    public mutating func moveSection(_ section: Section, beforeSection target: Section) throws(Error) {
        try moveSection(section, relativeTo: target, after: false)
    }

    public mutating func moveSection(_ section: Section, afterSection target: Section) throws(Error) {
        try moveSection(section, relativeTo: target, after: true)
    }

    /// Marks sections to be reloaded in the next diff.
    public mutating func reloadSections(_ identifiers: [Section]) throws(Error) {
        for id in identifiers where sectionPositions[id] == nil { throw .sectionNotFound(id) }
        for id in identifiers where reloadedSectionSet.insert(id).inserted { reloadedSections.append(id) }
    }

    // MARK: - Items

    /// Appends items to `section`, or to the last section when `section` is nil.
    public mutating func appendItems(_ identifiers: [Item], toSection section: Section? = nil) throws(Error) {
        let index: Int
        if let section {
            guard let found = sectionPositions[section] else { throw .sectionNotFound(section) }
            index = found
        } else {
            guard !sections.isEmpty else { throw .noSections }
            index = sections.count - 1
        }
        try insertItems(identifiers, section: index, at: sectionItems[index].count)
    }

    public mutating func insertItems(_ identifiers: [Item], beforeItem target: Item) throws(Error) {
        guard let slot = itemSlots[target] else { throw .itemNotFound(target) }
        try insertItems(identifiers, section: slot.section, at: slot.index)
    }

    public mutating func insertItems(_ identifiers: [Item], afterItem target: Item) throws(Error) {
        guard let slot = itemSlots[target] else { throw .itemNotFound(target) }
        try insertItems(identifiers, section: slot.section, at: slot.index + 1)
    }

    public mutating func deleteItems(_ identifiers: [Item]) throws(Error) {
        var doomedBySection: [Int: Set<Int>] = [:]
        for id in identifiers {
            guard let slot = itemSlots[id] else { throw .itemNotFound(id) }
            doomedBySection[slot.section, default: []].insert(slot.index)
        }
        for (section, doomed) in doomedBySection {
            for index in doomed { itemSlots[sectionItems[section][index]] = nil }
            var kept: [Item] = []
            kept.reserveCapacity(sectionItems[section].count - doomed.count)
            for (index, item) in sectionItems[section].enumerated() where !doomed.contains(index) {
                kept.append(item)
            }
            sectionItems[section] = kept
            renumberItems(inSection: section, from: doomed.min()!)
        }
        if let first = doomedBySection.keys.min() { recomputeOffsets(from: first) }
        dropMarksOfRemovedItems()
    }

    /// Removes every item; the sections stay.
    public mutating func deleteAllItems() {
        itemSlots.removeAll()
        for index in sectionItems.indices { sectionItems[index].removeAll() }
        recomputeOffsets(from: 0)
        dropMarksOfRemovedItems()
    }

    public mutating func moveItem(_ item: Item, beforeItem target: Item) throws(Error) {
        try moveItem(item, relativeTo: target, after: false)
    }

    public mutating func moveItem(_ item: Item, afterItem target: Item) throws(Error) {
        try moveItem(item, relativeTo: target, after: true)
    }

    /// Marks items to be reloaded (content replaced) in the next diff.
    public mutating func reloadItems(_ identifiers: [Item]) throws(Error) {
        for id in identifiers where itemSlots[id] == nil { throw .itemNotFound(id) }
        for id in identifiers where reloadedItemSet.insert(id).inserted { reloadedItems.append(id) }
    }

    /// Marks items to be reconfigured (repainted in place) in the next diff.
    public mutating func reconfigureItems(_ identifiers: [Item]) throws(Error) {
        for id in identifiers where itemSlots[id] == nil { throw .itemNotFound(id) }
        for id in identifiers where reconfiguredItemSet.insert(id).inserted { reconfiguredItems.append(id) }
    }

    /// The same snapshot without reload and reconfigure marks, as a base for the next change.
    public func clearingMarks() -> Self {
        var copy = self
        copy.reloadedItems = []
        copy.reloadedItemSet = []
        copy.reconfiguredItems = []
        copy.reconfiguredItemSet = []
        copy.reloadedSections = []
        copy.reloadedSectionSet = []
        return copy
    }

    // MARK: - Helpers

    private mutating func insertSections(_ identifiers: [Section], at index: Int) throws(Error) {
        var seen: [Section: Int] = [:]
        for (position, id) in identifiers.enumerated() {
            if let existing = sectionPositions[id] {
                throw .duplicateSection(id, existingIndex: existing, argumentIndices: [position])
            }
            if let earlier = seen.updateValue(position, forKey: id) {
                throw .duplicateSection(id, existingIndex: nil, argumentIndices: [earlier, position])
            }
        }
        guard !identifiers.isEmpty else { return }
        sections.insert(contentsOf: identifiers, at: index)
        sectionItems.insert(contentsOf: Array(repeating: [], count: identifiers.count), at: index)
        renumberSections(from: index)
    }

    private mutating func insertItems(_ identifiers: [Item], section: Int, at index: Int) throws(Error) {
        var seen: [Item: Int] = [:]
        seen.reserveCapacity(identifiers.count)
        for (position, id) in identifiers.enumerated() {
            if let slot = itemSlots[id] {
                throw .duplicateItem(id, existingPath: ItemPath(section: slot.section, item: slot.index),
                                     argumentIndices: [position])
            }
            if let earlier = seen.updateValue(position, forKey: id) {
                throw .duplicateItem(id, existingPath: nil, argumentIndices: [earlier, position])
            }
        }
        guard !identifiers.isEmpty else { return }
        itemSlots.reserveCapacity(itemSlots.count + identifiers.count)
        if index == sectionItems[section].count {
            sectionItems[section].append(contentsOf: identifiers)
        } else {
            sectionItems[section].insert(contentsOf: identifiers, at: index)
        }
        renumberItems(inSection: section, from: index)
        recomputeOffsets(from: section + 1)
    }

    private mutating func moveSection(_ section: Section, relativeTo target: Section, after: Bool) throws(Error) {
        guard let from = sectionPositions[section] else { throw .sectionNotFound(section) }
        guard let targetIndex = sectionPositions[target] else { throw .sectionNotFound(target) }
        guard from != targetIndex else { throw .sectionMovedRelativeToItself(section, index: from) }
        let items = sectionItems[from]
        sections.remove(at: from)
        sectionItems.remove(at: from)
        var to = targetIndex > from ? targetIndex - 1 : targetIndex
        if after { to += 1 }
        sections.insert(section, at: to)
        sectionItems.insert(items, at: to)
        renumberSections(from: min(from, to))
    }

    private mutating func moveItem(_ item: Item, relativeTo target: Item, after: Bool) throws(Error) {
        guard let from = itemSlots[item] else { throw .itemNotFound(item) }
        guard let targetSlot = itemSlots[target] else { throw .itemNotFound(target) }
        guard item != target else {
            throw .itemMovedRelativeToItself(item, path: ItemPath(section: from.section, item: from.index))
        }
        sectionItems[from.section].remove(at: from.index)
        renumberItems(inSection: from.section, from: from.index)
        let targetNow = itemSlots[target]!
        let to = after ? targetNow.index + 1 : targetNow.index
        sectionItems[targetSlot.section].insert(item, at: to)
        renumberItems(inSection: targetSlot.section, from: to)
        recomputeOffsets(from: min(from.section, targetSlot.section))
    }

    private mutating func renumberItems(inSection section: Int, from start: Int) {
        let items = sectionItems[section]
        var index = start
        while index < items.count {
            itemSlots[items[index]] = Slot(section: section, index: index)
            index += 1
        }
    }

    private mutating func renumberSections(from start: Int) {
        for index in start..<sections.count {
            sectionPositions[sections[index]] = index
            renumberItems(inSection: index, from: 0)
        }
        sectionOffsets.removeLast(max(0, sectionOffsets.count - sections.count))
        recomputeOffsets(from: start)
    }

    private mutating func recomputeOffsets(from start: Int) {
        if sectionOffsets.count < sections.count {
            sectionOffsets.append(contentsOf: repeatElement(0, count: sections.count - sectionOffsets.count))
        }
        guard start < sections.count else { return }
        var offset = start == 0 ? 0 : sectionOffsets[start - 1] + sectionItems[start - 1].count
        for index in start..<sections.count {
            sectionOffsets[index] = offset
            offset += sectionItems[index].count
        }
    }

    private mutating func dropMarksOfRemovedItems() {
        if !reloadedItemSet.isEmpty {
            reloadedItems.removeAll { itemSlots[$0] == nil }
            reloadedItemSet = Set(reloadedItems)
        }
        if !reconfiguredItemSet.isEmpty {
            reconfiguredItems.removeAll { itemSlots[$0] == nil }
            reconfiguredItemSet = Set(reconfiguredItems)
        }
    }
}
