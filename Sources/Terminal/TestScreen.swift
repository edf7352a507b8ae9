import SkycastCore
import TextLayout

/// A cell grid that stands in for the terminal in tests: what would be on screen, cell by cell, as
/// text and as styles, with no terminal involved.
public final class TestScreen: Screen {
    public struct Cell: Hashable, Sendable {
        /// The character drawn here; "" for the second cell of a wide character.
        public var text: String
        public var style: TextStyle
    }

    public let size: TerminalSize
    public let capabilities: TerminalCapabilities
    public private(set) var cells: [[Cell]]
    public private(set) var cursor: (row: Int, column: Int)?
    public private(set) var flushCount = 0

    public init(size: TerminalSize, capabilities: TerminalCapabilities = TerminalCapabilities(colors: .full, unicode: true, animation: true)) {
        self.size = size
        self.capabilities = capabilities
        cells = Array(repeating: Array(repeating: Cell(text: " ", style: .plain), count: max(0, size.columns)), count: max(0, size.rows))
    }

    @discardableResult
    public func put(_ text: String, row: Int, column: Int, style: TextStyle) -> Int {
        guard row >= 0, row < size.rows else { return column }
        let style = capabilities.resolve(style)
        var x = column
        for character in TerminalText.sanitized(text) {
            let width = TerminalText.width(String(character))
            if width == 0 {
                if x > 0, x - 1 < size.columns { cells[row][x - 1].text += String(character) }
                continue
            }
            guard x >= 0, x + width <= size.columns else { break }
            clearWideNeighbours(row: row, column: x, width: width)
            cells[row][x] = Cell(text: String(character), style: style)
            if width == 2 { cells[row][x + 1] = Cell(text: "", style: style) }
            x += width
        }
        return x
    }

    public func fill(row: Int, column: Int, width: Int, style: TextStyle) {
        guard row >= 0, row < size.rows else { return }
        let style = capabilities.resolve(style)
        for x in max(0, column)..<min(size.columns, column + width) where x >= 0 {
            clearWideNeighbours(row: row, column: x, width: 1)
            cells[row][x] = Cell(text: " ", style: style)
        }
    }

    /// Overwriting half of a wide character blanks its other half, as a terminal does.
    private func clearWideNeighbours(row: Int, column: Int, width: Int) {
        if cells[row][column].text == "", column > 0 { cells[row][column - 1].text = " " }
        let after = column + width
        if after < size.columns, cells[row][after].text == "" { cells[row][after].text = " " }
    }

    public func setCursor(row: Int, column: Int, visible: Bool) {
        cursor = visible ? (row, column) : nil
    }

    public func flush() { flushCount += 1 }

    /// The screen as text, one line per row, trailing spaces kept so that widths are visible.
    public var text: String {
        cells.map { $0.map(\.text).joined() }.joined(separator: "\n")
    }

    /// The text of one row, trailing spaces removed.
    public func line(_ row: Int) -> String {
        var text = cells[row].map(\.text).joined()
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }

    /// A style map: one letter per cell for the styles in use (`.` for plain), with a legend.
    public var styleMap: String {
        var legend: [TextStyle: Character] = [.plain: "."]
        var order: [TextStyle] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var lines: [String] = []
        for row in cells {
            var line = ""
            for cell in row {
                if legend[cell.style] == nil {
                    legend[cell.style] = letters[min(order.count, letters.count - 1)]
                    order.append(cell.style)
                }
                line.append(legend[cell.style]!)
            }
            lines.append(line)
        }
        let described = order.map { style -> String in
            var parts: [String] = []
            if let foreground = style.foreground { parts.append("fg=\(foreground.index)") }
            if let background = style.background { parts.append("bg=\(background.index)") }
            if style.bold { parts.append("bold") }
            if style.dim { parts.append("dim") }
            if style.reverse { parts.append("reverse") }
            if style.underline { parts.append("underline") }
            return "\(legend[style]!): \(parts.joined(separator: " "))"
        }
        return (lines + described).joined(separator: "\n")
    }
}
