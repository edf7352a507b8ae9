/// What the terminal can show, decided in one place from the environment, what ncurses reports and
/// the user's flags. Everything that draws asks this, never `TERM` itself.
public struct TerminalCapabilities: Hashable, Sendable {
    public enum ColorLevel: Int, Sendable, Comparable {
        case none = 0
        case eight = 8
        case sixteen = 16
        case full = 256

        public static func < (lhs: ColorLevel, rhs: ColorLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var colors: ColorLevel
    /// UTF-8 output: ★, ☀, ▁▂▃ and box lines; otherwise ASCII fallbacks.
    public var unicode: Bool
    public var animation: Bool
    /// The terminal says its background is light (`COLORFGBG`); fades then end in light tones.
    public var lightBackground: Bool

    public init(colors: ColorLevel, unicode: Bool, animation: Bool, lightBackground: Bool = false) {
        self.colors = colors
        self.unicode = unicode
        self.animation = animation
        self.lightBackground = lightBackground
    }

    /// The user's overrides from flags or config.
    public struct Overrides: Hashable, Sendable {
        public var noColor = false
        public var ascii = false
        public var noAnimation = false

        public init(noColor: Bool = false, ascii: Bool = false, noAnimation: Bool = false) {
            self.noColor = noColor
            self.ascii = ascii
            self.noAnimation = noAnimation
        }
    }

    /// - Parameter terminalColors: what the terminal reports (ncurses' `COLORS`), 0 when it has none.
    public static func detect(environment: [String: String], terminalColors: Int, overrides: Overrides) -> TerminalCapabilities {
        let term = environment["TERM"] ?? ""
        let dumb = term == "dumb" || term.isEmpty
        var colors: ColorLevel
        switch terminalColors {
        case 256...: colors = .full
        case 16..<256: colors = .sixteen
        case 8..<16: colors = .eight
        default: colors = .none
        }
        // https://no-color.org: present and not empty disables colour.
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { colors = .none }
        if dumb || overrides.noColor { colors = .none }
        return TerminalCapabilities(colors: colors, unicode: !overrides.ascii && !dumb && isUTF8Locale(environment),
                                    animation: !overrides.noAnimation && !dumb,
                                    lightBackground: hasLightBackground(environment))
    }

    /// rxvt, Konsole and others set `COLORFGBG` to "foreground;background" in ANSI numbers.
    static func hasLightBackground(_ environment: [String: String]) -> Bool {
        guard let value = environment["COLORFGBG"], let background = value.split(separator: ";").last.flatMap({ Int($0) }) else {
            return false
        }
        return background == 7 || background >= 9 && background != 8
    }

    /// The locale ncurses and the C library will use: LC_ALL, then LC_CTYPE, then LANG.
    public static func isUTF8Locale(_ environment: [String: String]) -> Bool {
        let locale = [environment["LC_ALL"], environment["LC_CTYPE"], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    /// What `style` becomes on this terminal.
    public func resolve(_ style: TextStyle) -> TextStyle {
        var resolved = style
        switch colors {
        case .full: break
        case .sixteen, .eight:
            resolved.foreground = style.foreground?.nearest(among: colors.rawValue)
            resolved.background = style.background?.nearest(among: colors.rawValue)
        case .none:
            resolved.foreground = nil
            resolved.background = nil
        }
        return resolved
    }

    public var glyphs: Glyphs { unicode ? .unicode : .ascii }
}

/// The characters that have an ASCII fallback.
public struct Glyphs: Hashable, Sendable {
    public var star: String
    public var ellipsis: String
    public var horizontalLine: String
    public var verticalLine: String
    public var degree: String
    /// Eight heights, lowest first.
    public var sparkline: [String]
    /// Chart shading, lightest first.
    public var shades: [String]
    public var emDash: String
    public var refresh: String
    public var warning: String
    public var separator: String
    /// Where a value is missing (the service sent null).
    public var missing: String

    public static let unicode = Glyphs(star: "★", ellipsis: "…", horizontalLine: "─", verticalLine: "┤",
                                       degree: "°", sparkline: ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"],
                                       shades: ["░", "▒", "▓", "█"], emDash: "—", refresh: "⟳", warning: "⚠",
                                       separator: "·", missing: "–")
    public static let ascii = Glyphs(star: "*", ellipsis: "~", horizontalLine: "-", verticalLine: "|",
                                     degree: "", sparkline: ["_", "_", ".", "-", "-", "=", "^", "^"],
                                     shades: [".", ":", "o", "#"], emDash: "-", refresh: "~", warning: "!",
                                     separator: "|", missing: "-")
}
