import DiffableSnapshot
import SkycastCore
import TextLayout

/// A scrolling table of sections and rows, drawn from a `DiffableSnapshot` and a `TableState`.
///
/// The selection and the scroll position belong to the caller's state; the view keeps only what
/// animation needs: it animates exactly the rows a diff names (inserted rows fade from a highlight,
/// reconfigured rows flash briefly), as a function of the `now` passed in.
public final class TableView<Section: Hashable & Sendable, Item: Hashable & Sendable> {
    public typealias CellProvider = (_ item: Item, _ width: Int) -> StyledLine
    /// The title of a section's header line ("── added ────"), or nil for a section without one.
    public typealias SectionHeaderProvider = (_ section: Section) -> String?

    var cellProvider: CellProvider
    var sectionHeaderProvider: SectionHeaderProvider?
    public private(set) var snapshot = DiffableSnapshot<Section, Item>()
    private var lines: [TableLine<Section, Item>] = []
    private var insertedAt: [Item: Double] = [:]
    /// Rows the diff moved (only those: a minimal diff moves few rows when many shift).
    private var movedAt: [Item: Double] = [:]
    /// Reconfigured rows: when, and the line they showed before, so that only the runs whose text
    /// changed flash (a repainted temperature costs a few bytes, not a whole row).
    private var flashedAt: [Item: (time: Double, previous: StyledLine?)] = [:]
    /// The line each visible row showed at the last render.
    private var renderedLines: [Item: StyledLine] = [:]
    public var selectionStyle = TextStyle(reverse: true)

    public init(cellProvider: @escaping CellProvider, sectionHeaderProvider: SectionHeaderProvider? = nil) {
        self.cellProvider = cellProvider
        self.sectionHeaderProvider = sectionHeaderProvider
    }

    // MARK: - Applying changes

    /// Takes `snapshot` as the new content; `diff` (from the previous snapshot) says which rows animate.
    public func apply(_ diff: SnapshotDiff<Section, Item>, to snapshot: DiffableSnapshot<Section, Item>, animated: Bool, now: Double) {
        self.snapshot = snapshot
        lines = TableLine.lines(snapshot.sectionIdentifiers.map { ($0, snapshot.itemIdentifiers(inSection: $0) ?? []) },
                                hasHeader: { [sectionHeaderProvider] in sectionHeaderProvider?($0) != nil })
        insertedAt = insertedAt.filter { snapshot.contains($0.key) && now - $0.value < HighlightFade.duration }
        movedAt = movedAt.filter { snapshot.contains($0.key) && now - $0.value < HighlightFade.moveDuration }
        renderedLines = renderedLines.filter { snapshot.contains($0.key) }
        flashedAt = flashedAt.filter { snapshot.contains($0.key) && now - $0.value.time < HighlightFade.flashDuration }
        if animated {
            for path in diff.insertedItems { if let item = snapshot.item(at: path) { insertedAt[item] = now } }
            for section in diff.insertedSections {
                for item in snapshot.itemIdentifiers(inSection: snapshot.sectionIdentifiers[section]) ?? [] { insertedAt[item] = now }
            }
            for move in diff.movedItems {
                if let item = snapshot.item(at: move.to), insertedAt[item] == nil { movedAt[item] = now }
            }
            for path in diff.reconfiguredItems + diff.reloadedItems {
                if let item = snapshot.item(at: path), insertedAt[item] == nil { flashedAt[item] = (now, renderedLines[item]) }
            }
        }
    }

    /// Restarts the highlight of `item` (an existing city added again flashes instead of duplicating).
    public func highlight(_ item: Item, now: Double) {
        if snapshot.contains(item) { insertedAt[item] = now }
    }

    // MARK: - Animation

    /// Whether a fade or flash is still playing at `now`.
    public func isAnimating(now: Double) -> Bool {
        insertedAt.values.contains { now - $0 < HighlightFade.duration }
            || movedAt.values.contains { now - $0 < HighlightFade.moveDuration }
            || flashedAt.values.contains { now - $0.time < HighlightFade.flashDuration }
    }

    /// Whether `item` is playing its insertion highlight at `now`.
    public func isHighlighted(_ item: Item, now: Double) -> Bool {
        insertedAt[item].map { now - $0 < HighlightFade.duration } ?? false
    }

    // MARK: - Drawing

    /// Draws the table into `height` rows from `top`: an optional column header, then the body from
    /// the state's scroll offset, with its selected row highlighted.
    public func render(on screen: Screen, top: Int, left: Int = 0, width: Int, height: Int, header: StyledLine?,
                       state: TableState<Item>, now: Double) {
        guard height > 0, width > 0 else { return }
        var row = top
        if let header {
            screen.put(header, row: row, column: left, width: width)
            row += 1
        }
        let visible = max(1, top + height - row)
        // The state keeps its offset valid; clamping again only guards the drawing.
        let first = min(max(0, state.scrollOffset), max(0, lines.count - visible))
        let capabilities = screen.capabilities
        for index in first..<(first + visible) {
            guard index < lines.count else {
                screen.fill(row: row, column: left, width: width, style: .plain)
                row += 1
                continue
            }
            switch lines[index] {
            case let .header(section):
                let glyphs = capabilities.glyphs
                let title = sectionHeaderProvider?(section) ?? ""
                let rule = glyphs.horizontalLine + glyphs.horizontalLine + " " + title + " "
                let line = "   " + rule + String(repeating: glyphs.horizontalLine, count: max(0, width - 3 - TerminalText.width(rule)))
                screen.put(StyledLine(line, TextStyle(dim: true)), row: row, column: left, width: width)
            case let .item(item):
                var overlay: TextStyle?
                if let inserted = insertedAt[item], let fade = HighlightFade.style(elapsed: now - inserted, capabilities: capabilities) {
                    overlay = fade
                } else if let moved = movedAt[item], let mark = HighlightFade.moveStyle(elapsed: now - moved, capabilities: capabilities) {
                    overlay = mark
                } else if item == state.selected {
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
