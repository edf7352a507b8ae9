/// Where the table screen puts things, for a terminal size: shared by paging (update) and drawing
/// (the view), so that both agree on how many rows a page has.
///
///     0  title
///     1  rule
///     2  column header
///     3… body (the rows)
///     -2 rule
///     -1 status bar
public struct ScreenLayout: Equatable, Sendable {
    /// Below this the screen says "terminal too small" and draws nothing else.
    public static let minimumSize = TerminalSize(rows: 8, columns: 40)

    public var size: TerminalSize

    public init(size: TerminalSize) {
        self.size = size
    }

    public var isTooSmall: Bool { size.rows < Self.minimumSize.rows || size.columns < Self.minimumSize.columns }

    public let titleRow = 0
    public let topRuleRow = 1
    public let columnHeaderRow = 2
    public let bodyTop = 3
    /// Lines for rows and section headers.
    public var bodyHeight: Int { max(1, size.rows - 5) }
    public var bottomRuleRow: Int { size.rows - 2 }
    public var statusRow: Int { size.rows - 1 }
    /// Lines of the help overlay's body: the window less its frame (title, blank, hint) and a margin.
    public var helpLines: Int { max(1, size.rows - 2 - 3) }

    /// How far PgDn moves: a page less one row, so that the last row seen stays in view.
    public var pageSize: Int { max(1, bodyHeight - 1) }
}
