import CNCursesw
import CTerminalSignals
import Foundation
import SkycastCore
import TextLayout

/// The real terminal, through ncursesw. The only code that calls ncurses: create, use and end it on
/// one thread (ncurses is not thread-safe). Other threads wake the UI loop with `Wakeup.post()`.
///
/// Each frame is drawn whole into ncurses' buffer and `flush()` sends only what changed, so an
/// update costs bytes in proportion to the change. `clear()` is used only after a resize.
public final class NCursesScreen: Screen {
    public enum SetupError: Error, CustomStringConvertible {
        case noTerminal(String)
        case pipe(Int32)

        public var description: String {
            switch self {
            case let .noTerminal(term):
                return "cannot use the terminal (TERM=\(term)): no terminfo entry, and xterm-256color failed too"
            case let .pipe(code): return "cannot create the wake-up pipe: \(String(cString: strerror(code)))"
            }
        }
    }

    /// Why the UI loop woke, other than input.
    public enum Signal: Sendable {
        case resize, interrupt, terminate, hangup, event
    }

    /// What `wait` saw: the terminal is there, or it went away (closed, hung up, at end of input).
    public enum Activity: Sendable, Equatable {
        case ready, terminalLost
    }

    public private(set) var size: TerminalSize
    public let capabilities: TerminalCapabilities
    public let wakeup: Wakeup
    public let inputDescriptor: Int32
    private let terminal: OpaquePointer
    private let outputDescriptor: Int32
    private let outputFile: UnsafeMutablePointer<FILE>
    private let inputFile: UnsafeMutablePointer<FILE>
    private var colorPairs: [ColorPair: Int16] = [:]
    private var ended = false

    struct ColorPair: Hashable {
        var foreground: Int16
        var background: Int16
    }

    /// - Parameters:
    ///   - input, output: the terminal's descriptors (stdin/stdout, or a pseudo-terminal in benchmarks).
    public init(environment: [String: String], overrides: TerminalCapabilities.Overrides,
                input: Int32 = 0, output: Int32 = 1, mouse: Bool = true) throws(SetupError) {
        setlocale(LC_ALL, "")
        skycast_signals_save_terminal(input)
        let term = environment["TERM"].flatMap { $0.isEmpty ? nil : $0 } ?? "xterm-256color"
        guard let outputFile = fdopen(dup(output), "w"), let inputFile = fdopen(dup(input), "r") else {
            throw .noTerminal(term)
        }
        var screen = newterm(term, outputFile, inputFile)
        if screen == nil { screen = newterm("xterm-256color", outputFile, inputFile) }
        guard let screen else {
            fclose(outputFile)
            fclose(inputFile)
            throw .noTerminal(term)
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .pipe(errno) }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        set_term(screen)
        terminal = screen
        self.outputFile = outputFile
        self.inputFile = inputFile
        inputDescriptor = fileno(inputFile)
        outputDescriptor = output
        wakeup = Wakeup(readDescriptor: fds[0], writeDescriptor: fds[1])

        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        nodelay(cn_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        var colorCount: Int32 = 0
        if has_colors() {
            start_color()
            use_default_colors()
            colorCount = cn_colors()
        }
        capabilities = TerminalCapabilities.detect(environment: environment, terminalColors: Int(colorCount), overrides: overrides)
        if mouse { mousemask(cn_BUTTON4_PRESSED | cn_BUTTON5_PRESSED, nil) }
        size = TerminalSize(rows: Int(cn_getmaxy()), columns: Int(cn_getmaxx()))
        let reset = Self.resetSequence(mouse: mouse)
        reset.withUnsafeBufferPointer { skycast_signals_install(fds[1], output, $0.baseAddress, $0.count) }
    }

    /// What a crash handler writes to give the terminal back: leave the alternate screen, keypad
    /// mode and mouse reporting, show the cursor, reset attributes. Prepared now because a signal
    /// handler may not ask terminfo.
    private static func resetSequence(mouse: Bool) -> [CChar] {
        var bytes: [CChar] = []
        for capability in ["rmcup", "rmkx", "cnorm", "sgr0"] {
            guard let value = tigetstr(capability), Int(bitPattern: value) != -1 else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(start: value, count: strlen(value)))
        }
        if mouse { bytes.append(contentsOf: "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1006l".utf8.map { CChar(bitPattern: $0) }) }
        return bytes
    }

    deinit { end() }

    /// Puts the terminal back as it was. Safe to call more than once.
    public func end() {
        guard !ended else { return }
        ended = true
        skycast_signals_uninstall()
        curs_set(1)
        endwin()
        delscreen(terminal)
        fclose(outputFile)
        fclose(inputFile)
    }

    @discardableResult
    public func put(_ text: String, row: Int, column: Int, style: TextStyle) -> Int {
        guard row >= 0, row < size.rows, column >= 0, column < size.columns else { return column }
        let clean = TerminalText.sanitized(text)
        let room = size.columns - column
        let fitted = TerminalText.width(clean) > room ? TerminalText.truncated(clean, to: room, ellipsis: "") : clean
        apply(style)
        cn_move(Int32(row), Int32(column))
        _ = fitted.withCString { cn_addnstr($0, -1) }
        return column + TerminalText.width(fitted)
    }

    public func fill(row: Int, column: Int, width: Int, style: TextStyle) {
        let start = max(0, column)
        let count = min(size.columns, column + width) - start
        guard row >= 0, row < size.rows, count > 0 else { return }
        apply(style)
        cn_move(Int32(row), Int32(start))
        let blanks = String(repeating: " ", count: count)
        _ = blanks.withCString { cn_addnstr($0, Int32(count)) }
    }

    /// Where the cursor is to show when the frame is sent (drawing moves ncurses' own cursor).
    private var cursor: (row: Int, column: Int)?
    private var cursorShown = false

    public func setCursor(row: Int, column: Int, visible: Bool) {
        cursor = visible ? (row, column) : nil
    }

    public func flush() {
        if let cursor { cn_move(Int32(cursor.row), Int32(cursor.column)) }
        // Only a change of visibility costs bytes on the wire.
        if (cursor != nil) != cursorShown {
            cursorShown = cursor != nil
            curs_set(cursorShown ? 1 : 0)
        }
        refresh()
    }

    /// After a resize: ask the terminal its size, resize ncurses' buffers, repaint all on the next flush.
    public func updateSize() {
        var rows: Int32 = 0
        var columns: Int32 = 0
        if cn_window_size(fileno(outputFile), &rows, &columns) == 0, rows > 0, columns > 0,
           rows != Int32(size.rows) || columns != Int32(size.columns) {
            resize_term(rows, columns)
        }
        size = TerminalSize(rows: Int(cn_getmaxy()), columns: Int(cn_getmaxx()))
        clearok(cn_stdscr(), true)
    }

    /// Ctrl-L: repaint the whole screen on the next flush.
    public func redrawAll() {
        clearok(cn_stdscr(), true)
    }

    /// Waits up to `timeout` for a key, a wake-up or the terminal going away.
    ///
    /// A vanished terminal (the SSH session or tmux server gone while SIGHUP is ignored) makes
    /// `poll` return at once, forever: POLLHUP/POLLERR/POLLNVAL on either side, or input that is
    /// readable with nothing to read (end of file, EIO). Reporting it is what keeps the loop from
    /// spinning.
    public func wait(timeout: TimeInterval) -> Activity {
        var descriptors = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: outputDescriptor, events: 0, revents: 0)]
        let milliseconds = Int32(min(max(0, timeout), 3_600) * 1000)
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return .ready }
        let lost = Int16(POLLHUP | POLLERR | POLLNVAL)
        if descriptors[0].revents & lost != 0 || descriptors[2].revents & lost != 0 { return .terminalLost }
        if descriptors[0].revents & Int16(POLLIN) != 0, inputAtEnd() { return .terminalLost }
        return .ready
    }

    /// True when the readable input holds no byte: a read would return 0 (end of file) or fail (EIO).
    private func inputAtEnd() -> Bool {
        var pending: Int32 = 0
        guard ioctl(inputDescriptor, UInt(FIONREAD), &pending) == 0 else { return true }
        guard pending == 0 else { return false }
        // Probe without blocking; a byte that arrived meanwhile goes back to ncurses' input queue.
        let flags = fcntl(inputDescriptor, F_GETFL)
        _ = fcntl(inputDescriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(inputDescriptor, F_SETFL, flags) }
        var byte: UInt8 = 0
        let count = read(inputDescriptor, &byte, 1)
        if count == 1 { ungetch(Int32(byte)); return false }
        return count == 0 || (errno != EAGAIN && errno != EINTR)
    }

    /// Every key waiting in ncurses' input, decoded.
    public func readKeys() -> [Key] {
        var keys: [Key] = []
        var character: wint_t = 0
        while true {
            let result = cn_get_wch(&character)
            if result == cn_ERR { break }
            if result == cn_KEY_CODE_YES {
                keys.append(Self.decodeFunctionKey(Int32(character)))
            } else {
                keys.append(Self.decodeCharacter(UInt32(character)))
            }
        }
        return keys
    }

    /// Signals posted to the wake-up pipe since the last call.
    public func drainSignals() -> [Signal] {
        var signals: [Signal] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(wakeup.readDescriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            for byte in buffer[0..<count] {
                switch byte {
                case UInt8(ascii: "W"): signals.append(.resize)
                case UInt8(ascii: "I"): signals.append(.interrupt)
                case UInt8(ascii: "T"): signals.append(.terminate)
                case UInt8(ascii: "H"): signals.append(.hangup)
                default: signals.append(.event)
                }
            }
        }
        return signals
    }

    static func decodeFunctionKey(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case cn_KEY_RESIZE: return .resize
        case cn_KEY_MOUSE:
            switch cn_mouse_wheel() {
            case -1: return .wheelUp
            case 1: return .wheelDown
            default: return .unknown(Int(code))
            }
        default: return .unknown(Int(code))
        }
    }

    static func decodeCharacter(_ value: UInt32) -> Key {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(value + 96)!))
        default:
            guard let scalar = Unicode.Scalar(value) else { return .unknown(Int(value)) }
            return .character(Character(scalar))
        }
    }

    private func apply(_ requested: TextStyle) {
        let style = capabilities.resolve(requested)
        var attributes = cn_A_NORMAL
        if style.bold { attributes |= cn_A_BOLD }
        if style.dim { attributes |= cn_A_DIM }
        if style.reverse { attributes |= cn_A_REVERSE }
        if style.underline { attributes |= cn_A_UNDERLINE }
        cn_set_attr(attributes, pair(for: style))
    }

    private func pair(for style: TextStyle) -> Int16 {
        guard capabilities.colors != .none, style.foreground != nil || style.background != nil else { return 0 }
        let key = ColorPair(foreground: style.foreground.map { Int16($0.index) } ?? -1,
                            background: style.background.map { Int16($0.index) } ?? -1)
        if let known = colorPairs[key] { return known }
        let next = Int16(colorPairs.count + 1)
        guard Int32(next) < min(cn_color_pairs(), 32_767) else { return 0 }
        init_pair(next, key.foreground, key.background)
        colorPairs[key] = next
        return next
    }
}

/// Wakes the UI loop from any thread: network tasks post here after queueing an event.
public struct Wakeup: Sendable {
    public let readDescriptor: Int32
    let writeDescriptor: Int32

    public func post() {
        var byte = UInt8(ascii: "E")
        _ = write(writeDescriptor, &byte, 1)
    }
}
