import DiffableSnapshot
import TextLayout

/// A scrolling table of sections and rows, drawn from a `DiffableSnapshot`.
///
/// It keeps the selection on the selected *item* through inserts, deletes and moves, keeps that item
/// visible, and animates exactly the rows a diff names: inserted rows fade from a highlight,
/// reconfigured rows flash briefly. All animation is a function of the `now` passed in.
public final class TableView<Section: Hashable & Sendable, Item: Hashable & Sendable> {
    public typealias CellProvider = (_ item: Item, _ width: Int) -> StyledLine
    /// The title of a section's header line ("── added ────"), or nil for a section without one.
    public typealias SectionHeaderProvider = (_ section: Section) -> String?

    enum Line: Hashable {
        case section(Section)
        case item(Item)
    }

    var cellProvider: CellProvider
    var sectionHeaderProvider: SectionHeaderProvider?
    public private(set) var snapshot = DiffableSnapshot<Section, Item>()
    public private(set) var selectedItem: Item?
    /// The first body line shown.
    public private(set) var scrollOffset = 0
    private var lines: [Line] = []
    private var lineOfItem: [Item: Int] = [:]
    private var insertedAt: [Item: Double] = [:]
    /// Reconfigured rows: when, and the line they showed before, so that only the runs whose text
    /// changed flash (a repainted temperature costs a few bytes, not a whole row).
    private var flashedAt: [Item: (time: Double, previous: StyledLine?)] = [:]
    /// The line each visible row showed at the last render.
    private var renderedLines: [Item: StyledLine] = [:]
    /// The number of body lines the last render had room for.
    public private(set) var visibleLineCount = 1
    public var selectionStyle = TextStyle(reverse: true)

    public init(cellProvider: @escaping CellProvider, sectionHeaderProvider: SectionHeaderProvider? = nil) {
        self.cellProvider = cellProvider
        self.sectionHeaderProvider = sectionHeaderProvider
    }

    // MARK: - Applying changes

    /// Takes `snapshot` as the new content; `diff` (from the previous snapshot) says which rows animate.
    public func apply(_ diff: SnapshotDiff<Section, Item>, to snapshot: DiffableSnapshot<Section, Item>, animated: Bool, now: Double) {
        let previousLine = selectedItem.flatMap { lineOfItem[$0] }
        self.snapshot = snapshot
        rebuildLines()
        insertedAt = insertedAt.filter { snapshot.contains($0.key) && now - $0.value < HighlightFade.duration }
        renderedLines = renderedLines.filter { snapshot.contains($0.key) }
        flashedAt = flashedAt.filter { snapshot.contains($0.key) && now - $0.value.time < HighlightFade.flashDuration }
        if animated {
            for path in diff.insertedItems { if let item = snapshot.item(at: path) { insertedAt[item] = now } }
            for section in diff.insertedSections {
                for item in snapshot.itemIdentifiers(inSection: snapshot.sectionIdentifiers[section]) ?? [] { insertedAt[item] = now }
            }
            for path in diff.reconfiguredItems + diff.reloadedItems {
                if let item = snapshot.item(at: path), insertedAt[item] == nil { flashedAt[item] = (now, renderedLines[item]) }
            }
        }
        if let selected = selectedItem, lineOfItem[selected] == nil {
            // The selected row left: select what now stands where it was.
            selectedItem = nearestItem(toLine: previousLine ?? 0)
        } else if selectedItem == nil {
            selectedItem = snapshot.itemIdentifiers.first
        }
        clampScroll()
    }

    /// Restarts the highlight of `item` (an existing city added again flashes instead of duplicating).
    public func highlight(_ item: Item, now: Double) {
        if snapshot.contains(item) { insertedAt[item] = now }
    }

    private func rebuildLines() {
        lines.removeAll(keepingCapacity: true)
        lineOfItem.removeAll(keepingCapacity: true)
        for section in snapshot.sectionIdentifiers {
            let items = snapshot.itemIdentifiers(inSection: section) ?? []
            if !items.isEmpty, sectionHeaderProvider?(section) != nil { lines.append(.section(section)) }
            for item in items {
                lineOfItem[item] = lines.count
                lines.append(.item(item))
            }
        }
    }

    private func nearestItem(toLine line: Int) -> Item? {
        guard !lines.isEmpty else { return nil }
        let start = min(max(0, line), lines.count - 1)
        for index in start..<lines.count { if case let .item(item) = lines[index] { return item } }
        for index in stride(from: start, through: 0, by: -1) { if case let .item(item) = lines[index] { return item } }
        return nil
    }

    // MARK: - Selection and scrolling

    public func select(_ item: Item) {
        guard lineOfItem[item] != nil else { return }
        selectedItem = item
        clampScroll()
    }

    /// Moves the selection by `delta` rows (section headers are skipped).
    public func moveSelection(by delta: Int) {
        let items = snapshot.itemIdentifiers
        guard !items.isEmpty else { return }
        let current = selectedItem.flatMap { snapshot.indexOfItem($0) } ?? 0
        selectedItem = items[min(max(0, current + delta), items.count - 1)]
        clampScroll()
    }

    public func pageDown() { moveSelection(by: max(1, visibleLineCount - 1)) }
    public func pageUp() { moveSelection(by: -max(1, visibleLineCount - 1)) }
    public func selectFirst() { moveSelection(by: -snapshot.numberOfItems) }
    public func selectLast() { moveSelection(by: snapshot.numberOfItems) }

    /// Scrolls by `delta` lines without moving the selection off screen (mouse wheel).
    public func scroll(by delta: Int) {
        scrollOffset = min(max(0, scrollOffset + delta), max(0, lines.count - visibleLineCount))
        if let selected = selectedItem, let line = lineOfItem[selected] {
            if line < scrollOffset { moveSelection(by: scrollOffset - line) }
            if line >= scrollOffset + visibleLineCount { moveSelection(by: scrollOffset + visibleLineCount - 1 - line) }
        }
    }

    private func clampScroll() {
        let height = max(1, visibleLineCount)
        if let selected = selectedItem, let line = lineOfItem[selected] {
            // Keep a section header above the first row of its section in view.
            let top = line > 0 && { if case .section = lines[line - 1] { return true }; return false }() ? line - 1 : line
            if top < scrollOffset { scrollOffset = top }
            if line >= scrollOffset + height { scrollOffset = line - height + 1 }
        }
        scrollOffset = min(max(0, scrollOffset), max(0, lines.count - height))
    }

    // MARK: - Animation

    /// Whether a fade or flash is still playing at `now`.
    public func isAnimating(now: Double) -> Bool {
        insertedAt.values.contains { now - $0 < HighlightFade.duration }
            || flashedAt.values.contains { now - $0.time < HighlightFade.flashDuration }
    }

    /// Whether `item` is playing its insertion highlight at `now`.
    public func isHighlighted(_ item: Item, now: Double) -> Bool {
        insertedAt[item].map { now - $0 < HighlightFade.duration } ?? false
    }

    // MARK: - Drawing

    /// Draws the table into `height` rows from `top`: an optional column header, then the body.
    public func render(on screen: Screen, top: Int, left: Int = 0, width: Int, height: Int, header: StyledLine?, now: Double) {
        guard height > 0, width > 0 else { return }
        var row = top
        if let header {
            screen.put(header, row: row, column: left, width: width)
            row += 1
        }
        visibleLineCount = max(1, top + height - row)
        clampScroll()
        let capabilities = screen.capabilities
        for index in scrollOffset..<(scrollOffset + visibleLineCount) {
            guard index < lines.count else {
                screen.fill(row: row, column: left, width: width, style: .plain)
                row += 1
                continue
            }
            switch lines[index] {
            case let .section(section):
                let glyphs = capabilities.glyphs
                let title = sectionHeaderProvider?(section) ?? ""
                let rule = glyphs.horizontalLine + glyphs.horizontalLine + " " + title + " "
                let line = "   " + rule + String(repeating: glyphs.horizontalLine, count: max(0, width - 3 - TerminalText.width(rule)))
                screen.put(StyledLine(line, TextStyle(dim: true)), row: row, column: left, width: width)
            case let .item(item):
                var overlay: TextStyle?
                if let inserted = insertedAt[item], let fade = HighlightFade.style(elapsed: now - inserted, capabilities: capabilities) {
                    overlay = fade
                } else if item == selectedItem {
                    overlay = selectionStyle
                }
                var line = cellProvider(item, width)
                renderedLines[item] = line
                let flash = flashedAt[item].flatMap { flashed in
                    HighlightFade.flashStyle(elapsed: now - flashed.time, capabilities: capabilities).map { ($0, flashed.previous) }
                }
                line.runs = line.runs.enumerated().map { index, run in
                    var style = overlay.map { run.style.merged(with: $0) } ?? run.style
                    if let (flashStyle, previous) = flash, previous.map({ index >= $0.runs.count || $0.runs[index].text != run.text }) ?? true {
                        style = style.merged(with: flashStyle)
                    }
                    return StyledLine.Run(run.text, style)
                }
                screen.put(line, row: row, column: left, width: width, fillStyle: overlay ?? .plain)
            }
            row += 1
        }
    }
}
