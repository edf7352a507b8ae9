import Foundation
import Terminal

/// Where `skycast show` prints: how wide, in which colours and characters. A terminal gets its
/// width (or `$COLUMNS`) and colours; a pipe, `NO_COLOR`, `--no-color` or `TERM=dumb` plain text;
/// `--ascii`, a non-UTF-8 locale or `TERM=dumb` ASCII.
struct ShowTarget {
    let width: Int
    let capabilities: TerminalCapabilities

    var ascii: Bool { !capabilities.unicode }

    init(settings: Settings, isTerminal: Bool) {
        let environment = settings.environment
        if let given = environment["COLUMNS"].flatMap(Int.init), given > 0 {
            width = given
        } else if isTerminal, let columns = Self.terminalColumns() {
            width = columns
        } else {
            width = 80
        }
        let term = environment["TERM"] ?? ""
        let colors = term.contains("256") || environment["COLORTERM"] != nil ? 256 : 16
        var detected = TerminalCapabilities.detect(environment: environment, terminalColors: isTerminal ? colors : 0,
                                                   overrides: settings.overrides)
        // A pipe (a file, another program) gets no escape sequences.
        if !isTerminal { detected.colors = .none }
        detected.unicode = !settings.overrides.ascii && term != "dumb" && TerminalCapabilities.isUTF8Locale(environment)
        detected.animation = false
        capabilities = detected
    }

    private static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
