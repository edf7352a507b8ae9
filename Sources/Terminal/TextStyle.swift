/// A colour as the app asks for it: one of the 256 xterm colours. What reaches the terminal is
/// decided by `TerminalCapabilities` (nearest of 16 or 8, or none).
public struct Color: Hashable, Sendable {
    public var index: UInt8

    public init(_ index: UInt8) { self.index = index }

    public static let black = Color(0)
    public static let red = Color(1)
    public static let green = Color(2)
    public static let yellow = Color(3)
    public static let blue = Color(4)
    public static let magenta = Color(5)
    public static let cyan = Color(6)
    public static let white = Color(7)
    public static let gold = Color(220)

    /// The nearest of the first `count` (8 or 16) ANSI colours.
    func nearest(among count: Int) -> Color {
        if Int(index) < count { return self }
        if index < 16 { return Color(index - 8) }
        let (r, g, b) = rgb
        var best = 0
        var bestDistance = Int.max
        for candidate in 0..<count {
            let (cr, cg, cb) = Color(UInt8(candidate)).rgb
            let distance = (r - cr) * (r - cr) + (g - cg) * (g - cg) + (b - cb) * (b - cb)
            if distance < bestDistance { bestDistance = distance; best = candidate }
        }
        return Color(UInt8(best))
    }

    /// Approximate xterm RGB, 0–255 each.
    var rgb: (Int, Int, Int) {
        let basic: [(Int, Int, Int)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
                                        (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
                                        (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        if index < 16 { return basic[Int(index)] }
        if index >= 232 { let level = 8 + Int(index - 232) * 10; return (level, level, level) }
        let cube = Int(index) - 16
        let steps = [0, 95, 135, 175, 215, 255]
        return (steps[cube / 36], steps[(cube / 6) % 6], steps[cube % 6])
    }
}

/// How a run of text looks. `nil` colours keep the terminal's own (its default background stays,
/// so light and dark themes both read well).
public struct TextStyle: Hashable, Sendable {
    public var foreground: Color?
    public var background: Color?
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false

    public init(foreground: Color? = nil, background: Color? = nil, bold: Bool = false, dim: Bool = false,
                reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = TextStyle()

    /// `overlay`'s colours and attributes on top of this style's.
    public func merged(with overlay: TextStyle) -> TextStyle {
        TextStyle(foreground: overlay.foreground ?? foreground, background: overlay.background ?? background,
                  bold: bold || overlay.bold, dim: (dim || overlay.dim) && !overlay.bold, reverse: reverse != overlay.reverse,
                  underline: underline || overlay.underline)
    }
}

/// A line of text in runs of one style each.
public struct StyledLine: Hashable, Sendable {
    public var runs: [Run]

    public struct Run: Hashable, Sendable {
        public var text: String
        public var style: TextStyle

        public init(_ text: String, _ style: TextStyle = .plain) {
            self.text = text
            self.style = style
        }
    }

    public init(_ runs: [Run] = []) { self.runs = runs }

    public init(_ text: String, _ style: TextStyle = .plain) { runs = [Run(text, style)] }

    public mutating func append(_ text: String, _ style: TextStyle = .plain) { runs.append(Run(text, style)) }

    public var text: String { runs.map(\.text).joined() }

    /// The line as text for a stream (`skycast show`): with SGR escapes for the styles the
    /// terminal can show, or plain where it shows no colour.
    public func escaped(for capabilities: TerminalCapabilities) -> String {
        guard capabilities.colors != .none else { return text }
        return runs.map { run in
            let style = capabilities.resolve(run.style)
            var codes: [String] = []
            if style.bold { codes.append("1") }
            if style.dim { codes.append("2") }
            if style.underline { codes.append("4") }
            if style.reverse { codes.append("7") }
            if let foreground = style.foreground { codes.append(Self.sgr(foreground, base: 30)) }
            if let background = style.background { codes.append(Self.sgr(background, base: 40)) }
            return codes.isEmpty ? run.text : "\u{1B}[\(codes.joined(separator: ";"))m\(run.text)\u{1B}[0m"
        }.joined()
    }

    private static func sgr(_ color: Color, base: Int) -> String {
        switch color.index {
        case 0..<8: return String(base + Int(color.index))
        case 8..<16: return String(base + 60 + Int(color.index) - 8)
        default: return "\(base + 8);5;\(color.index)"
        }
    }
}
