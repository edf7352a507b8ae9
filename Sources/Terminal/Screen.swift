import SkycastCore
import TextLayout

/// Where a frame is drawn. The ncurses implementation is the only code that talks to the terminal;
/// `TestScreen` is a cell grid for exact tests. Drawing is clipped to the screen and every string is
/// sanitised, so no caller can emit an escape sequence or overflow a line.
public protocol Screen: AnyObject {
    var size: TerminalSize { get }
    var capabilities: TerminalCapabilities { get }
    /// Draws `text` from (`row`, `column`), at most up to the right edge. Returns the column after it.
    @discardableResult
    func put(_ text: String, row: Int, column: Int, style: TextStyle) -> Int
    /// Paints `width` blank cells in `style`.
    func fill(row: Int, column: Int, width: Int, style: TextStyle)
    /// Shows the cursor at a cell (for a text prompt), or hides it.
    func setCursor(row: Int, column: Int, visible: Bool)
    /// Sends the frame to the terminal: only the cells that changed.
    func flush()
}

extension Screen {
    /// Draws the runs of `line` from `column`, clipped to `width` cells, padding the rest with `fillStyle`.
    @discardableResult
    public func put(_ line: StyledLine, row: Int, column: Int, width: Int, fillStyle: TextStyle = .plain) -> Int {
        var x = column
        let end = column + width
        for run in line.runs where x < end {
            let text = TerminalText.width(run.text) > end - x
                ? TerminalText.truncated(run.text, to: end - x, ellipsis: capabilities.unicode ? "…" : "~") : run.text
            x = put(text, row: row, column: x, style: run.style)
        }
        if x < end { fill(row: row, column: x, width: end - x, style: fillStyle) }
        return x
    }
}
