extension DiffableSnapshot {
    /// The changes that turn `old` into this snapshot.
    ///
    /// Items present in both are left alone or moved, never deleted and re-inserted (unless their
    /// section was deleted or inserted), and the moves are the fewest possible: within a surviving
    /// section the items on a longest increasing subsequence of old positions stay put. The result is
    /// deterministic: it never depends on hash order. Items marked with `reloadItems` or
    /// `reconfigureItems` on this snapshot are reported at their new positions.
    public func difference(from old: Self) -> SnapshotDiff<Section, Item> {
        difference(from: old, contentChanged: nil)
    }

    /// Like `difference(from:)`, and also reports as reconfigured every item that stayed (or moved)
    /// whose content changed, as told by `isContentEqual` (true when the item's old and new content
    /// are the same).
    public func difference(from old: Self, isContentEqual: (Item) -> Bool) -> SnapshotDiff<Section, Item> {
        withoutActuallyEscaping(isContentEqual) { difference(from: old, contentChanged: $0) }
    }

    private func difference(from old: Self, contentChanged isContentEqual: ((Item) -> Bool)?) -> SnapshotDiff<Section, Item> {
        var diff = SnapshotDiff<Section, Item>()
        let sameLayout = sections == old.sections && sectionItems == old.sectionItems
        if sameLayout && isContentEqual == nil && !hasItemMarks && reloadedSections.isEmpty {
            return diff
        }

        // Sections: which new section was which old one.
        var oldIndexOfNewSection = [Int](repeating: -1, count: sections.count)
        var newIndexOfOldSection = [Int](repeating: -1, count: old.sections.count)
        if sections == old.sections {
            for index in sections.indices {
                oldIndexOfNewSection[index] = index
                newIndexOfOldSection[index] = index
            }
        } else {
            for (newIndex, section) in sections.enumerated() {
                if let oldIndex = old.sectionPositions[section] {
                    oldIndexOfNewSection[newIndex] = oldIndex
                    newIndexOfOldSection[oldIndex] = newIndex
                } else {
                    diff.insertedSections.append(newIndex)
                }
            }
            for oldIndex in old.sections.indices where newIndexOfOldSection[oldIndex] < 0 {
                diff.deletedSections.append(oldIndex)
            }
            let survivors = oldIndexOfNewSection.filter { $0 >= 0 }
            let staying = longestIncreasingSubsequenceMask(survivors)
            var survivorIndex = 0
            for (newIndex, oldIndex) in oldIndexOfNewSection.enumerated() where oldIndex >= 0 {
                if !staying[survivorIndex] { diff.movedSections.append(Move(from: oldIndex, to: newIndex)) }
                survivorIndex += 1
            }
        }
        for section in reloadedSections {
            if let newIndex = sectionPositions[section], oldIndexOfNewSection[newIndex] >= 0 {
                diff.reloadedSections.append(newIndex)
            }
        }

        // Items.
        var matched = [Bool](repeating: false, count: old.numberOfItems)
        var stayerOldIndices: [Int] = []
        var stayerNewIndices: [Int] = []
        stayerOldIndices.reserveCapacity(sectionItems.map(\.count).max() ?? 0)
        stayerNewIndices.reserveCapacity(stayerOldIndices.capacity)
        for newSection in sections.indices {
            let items = sectionItems[newSection]
            let oldSection = oldIndexOfNewSection[newSection]
            if oldSection < 0 { continue }  // the inserted section brings its items
            stayerOldIndices.removeAll(keepingCapacity: true)
            stayerNewIndices.removeAll(keepingCapacity: true)
            let oldItems = old.sectionItems[oldSection]
            // Rows mostly keep their order: try the old row after the last one matched before hashing.
            var cursor = 0
            for newIndex in items.indices {
                let item = items[newIndex]
                let newPath = ItemPath(section: newSection, item: newIndex)
                let slot: Slot
                if cursor < oldItems.count && oldItems[cursor] == item {
                    slot = Slot(section: oldSection, index: cursor)
                    cursor += 1
                } else if let found = old.itemSlots[item], newIndexOfOldSection[found.section] >= 0 {
                    slot = found
                    if found.section == oldSection { cursor = found.index + 1 }
                } else {
                    diff.insertedItems.append(newPath)
                    continue
                }
                matched[old.sectionOffsets[slot.section] + slot.index] = true
                if slot.section == oldSection {
                    stayerOldIndices.append(slot.index)
                    stayerNewIndices.append(newIndex)
                } else {
                    diff.movedItems.append(Move(from: ItemPath(section: slot.section, item: slot.index), to: newPath))
                }
                if isReloaded(item) {
                    diff.reloadedItems.append(newPath)
                } else if isReconfigured(item) || !(isContentEqual?(item) ?? true) {
                    diff.reconfiguredItems.append(newPath)
                }
            }
            let staying = longestIncreasingSubsequenceMask(stayerOldIndices)
            for position in staying.indices where !staying[position] {
                diff.movedItems.append(Move(
                    from: ItemPath(section: oldSection, item: stayerOldIndices[position]),
                    to: ItemPath(section: newSection, item: stayerNewIndices[position])))
            }
        }
        for oldSection in old.sections.indices where newIndexOfOldSection[oldSection] >= 0 {
            let offset = old.sectionOffsets[oldSection]
            for index in old.sectionItems[oldSection].indices where !matched[offset + index] {
                diff.deletedItems.append(ItemPath(section: oldSection, item: index))
            }
        }
        if diff.movedItems.count > 1 { diff.movedItems.sort { $0.to < $1.to } }
        return diff
    }
}

/// For each element, whether it lies on one longest strictly increasing subsequence of `values`.
/// Patience sorting, O(n log n); close to O(n) when `values` is mostly increasing.
func longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    let count = values.count
    var alreadySorted = true
    var index = 1
    while index < count {
        if values[index - 1] >= values[index] { alreadySorted = false; break }
        index += 1
    }
    if alreadySorted { return [Bool](repeating: true, count: count) }

    // tails[k]: index of the smallest tail of an increasing run of length k + 1.
    var tails: [Int] = []
    tails.reserveCapacity(count)
    var predecessor = [Int](repeating: -1, count: count)
    values.withUnsafeBufferPointer { values in
        for position in 0..<count {
            let value = values[position]
            // Mostly-sorted input (the common case: a few rows moved) extends the longest run.
            if let last = tails.last, values[last] < value {
                predecessor[position] = last
                tails.append(position)
                continue
            }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) >> 1
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { predecessor[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
    }
    var mask = [Bool](repeating: false, count: count)
    var cursor = tails.last ?? -1
    while cursor >= 0 {
        mask[cursor] = true
        cursor = predecessor[cursor]
    }
    return mask
}
