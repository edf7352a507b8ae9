/// The terminal's size in cells.
public struct TerminalSize: Hashable, Sendable, CustomStringConvertible {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }

    public var description: String { "\(columns)×\(rows)" }
}
