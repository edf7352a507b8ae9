/// One line of a table: a section's header or a row.
public enum TableLine<Section: Hashable & Sendable, Item: Hashable & Sendable>: Hashable, Sendable {
    case header(Section)
    case item(Item)

    /// The lines of `sections` in order: a section with rows and a title gets a header line above them.
    /// The one rule for both the state (scrolling) and the view (drawing).
    public static func lines(_ sections: [(section: Section, items: [Item])], hasHeader: (Section) -> Bool) -> [TableLine] {
        var lines: [TableLine] = []
        for (section, items) in sections where !items.isEmpty {
            if hasHeader(section) { lines.append(.header(section)) }
            lines.append(contentsOf: items.map { .item($0) })
        }
        return lines
    }
}

/// Which row is selected and which line is at the top of a scrolling table. A value owned by the
/// app's state; the table view only draws it.
public struct TableState<Item: Hashable & Sendable>: Sendable, Equatable {
    public var selected: Item?
    /// The first line shown.
    public var scrollOffset = 0

    public init(selected: Item? = nil) {
        self.selected = selected
    }

    /// Moves the selection by `delta` rows among `items` (clamped to the first and last).
    public mutating func moveSelection(by delta: Int, in items: [Item]) {
        guard !items.isEmpty else { return }
        let current = selected.flatMap { items.firstIndex(of: $0) } ?? 0
        selected = items[min(max(0, current + delta), items.count - 1)]
    }

    /// After the rows changed: a selection whose row left goes to the row that now stands where it
    /// was (the next one, or the last); no selection goes to the first row; then the selected row
    /// (and a header right above it) is scrolled into view within `height` lines.
    public mutating func reconcile<Section>(lines: [TableLine<Section, Item>], previousItems: [Item], height: Int) {
        var lineOfItem: [Item: Int] = [:]
        var items: [Item] = []
        for (index, line) in lines.enumerated() {
            if case let .item(item) = line {
                lineOfItem[item] = index
                items.append(item)
            }
        }
        if let current = selected, lineOfItem[current] == nil {
            let previous = previousItems.firstIndex(of: current) ?? 0
            // Rows before it that are still here: the row after them stands where it was.
            let before = previousItems.prefix(previous).filter { lineOfItem[$0] != nil }.count
            selected = items.isEmpty ? nil : items[min(before, items.count - 1)]
        } else if selected == nil {
            selected = items.first
        }
        let visible = max(1, height)
        if let item = selected, let line = lineOfItem[item] {
            let top: Int
            if line > 0, case .header = lines[line - 1] { top = line - 1 } else { top = line }
            if top < scrollOffset { scrollOffset = top }
            if line >= scrollOffset + visible { scrollOffset = line - visible + 1 }
        }
        scrollOffset = min(max(0, scrollOffset), max(0, lines.count - visible))
    }
}
