/// What a key does. Update dispatches on these; the keymap says which keys give them.
public enum KeyAction: Sendable, Hashable {
    case moveDown, moveUp, first, last, pageDown, pageUp, halfPageDown, halfPageUp, scrollDown, scrollUp
    case search, bookmark, remove, undoRemoval, moveBookmarkDown, moveBookmarkUp, details, back, dismiss
    case refresh, refreshAll, toggleUnits, sort, reverseSort, useDemoData, help, redraw, quit
}

/// Where a key binding applies.
public enum KeyContext: Sendable, Hashable {
    case table
    case details
    /// In every mode, the search prompt included.
    case anywhere
}

public struct KeyBinding: Sendable {
    public var key: Key
    public var action: KeyAction
    public var contexts: [KeyContext]
}

/// One line of help: keys that belong together, what they do, and the bindings behind them.
public struct KeymapEntry: Sendable {
    /// A short word for the status bar, after its key: "/ search".
    public enum Hint: Sendable, Equatable {
        case text(key: String, word: String)
        /// "u °F": the units the key switches to.
        case otherUnits(key: String)
    }

    /// The keys as people read them: "j k ↓ ↑".
    public var label: String
    /// The help overlay's few words.
    public var summary: String
    /// The README's and the man page's sentence.
    public var detail: String
    public var bindings: [KeyBinding]
    public var hint: Hint?
}

/// Every key binding of the app, declared once. The update's dispatch, the help overlay, the status
/// bar's hints, `--help` and README's key table all come from here (a test compares README's).
public enum Keymap {
    public static let entries: [KeymapEntry] = [
        entry("j k ↓ ↑", "move down / up", "move down / up",
              [bind(.character("j"), .moveDown), bind(.down, .moveDown), bind(.character("k"), .moveUp), bind(.up, .moveUp)]),
        entry("g G Home End", "first / last city", "first / last city",
              [bind(.character("g"), .first), bind(.home, .first), bind(.character("G"), .last), bind(.end, .last)]),
        entry("PgUp PgDn ^u ^d", "page / half page", "page / half page up and down",
              [bind(.pageUp, .pageUp), bind(.pageDown, .pageDown), bind(.control("u"), .halfPageUp), bind(.control("d"), .halfPageDown)]),
        entry("wheel", "scroll", "the mouse wheel scrolls (`--no-mouse` leaves the mouse to the terminal)",
              [bind(.wheelDown, .scrollDown), bind(.wheelUp, .scrollUp)]),
        entry("/", "search and add a city", "search: type, ↑↓ choose, Tab asks the online geocoder, Enter adds, Esc cancels",
              [bind(.character("/"), .search)], hint: .text(key: "/", word: "search")),
        entry("b", "bookmark / unbookmark", "bookmark / unbookmark (bookmarks come first and survive restarts)",
              [bind(.character("b"), .bookmark)], hint: .text(key: "b", word: "bookmark")),
        entry("x Delete", "remove from the table", "remove the city from the table (a bookmarked one asks first)",
              [bind(.character("x"), .remove), bind(.delete, .remove)]),
        entry("U", "undo the last removal", "put back the last city removed in this run (with its bookmark)",
              [bind(.character("U"), .undoRemoval)]),
        entry("J K", "move a bookmark down / up", "move a bookmarked city down / up",
              [bind(.character("J"), .moveBookmarkDown), bind(.character("K"), .moveBookmarkUp)]),
        entry("Enter", "details: chart of the hours", "details: temperature chart of the coming hours, rain, wind, humidity, sunrise and sunset",
              [bind(.enter, .details)], hint: .text(key: "↵", word: "details")),
        entry("← → j k", "details: previous / next city", "in details: the previous / next city of the table",
              [bind(.left, .moveUp, in: [.details]), bind(.character("k"), .moveUp, in: [.details]),
               bind(.right, .moveDown, in: [.details]), bind(.character("j"), .moveDown, in: [.details])]),
        entry("Esc", "back / clear a message", "leave details, help or search; clear a message",
              [bind(.escape, .dismiss), bind(.escape, .back, in: [.details])]),
        entry("q Enter", "details: back to the table", "in details: back to the table (Backspace too)",
              [.character("q"), .enter, .backspace].map { bind($0, .back, in: [.details]) }),
        entry("r R", "refresh selected / all", "refresh the selected city / all (`r` in details too)",
              [bind(.character("r"), .refresh, in: [.table, .details]), bind(.character("R"), .refreshAll)],
              hint: .text(key: "r", word: "refresh")),
        entry("u", "°C ↔ °F", "°C ↔ °F (in details too)", [bind(.character("u"), .toggleUnits, in: [.table, .details])],
              hint: .otherUnits(key: "u")),
        entry("s S", "sort / reverse", "sort each section: your order, temperature (warmest first), name, local time (east to west); S reverses",
              [bind(.character("s"), .sort), bind(.character("S"), .reverseSort)]),
        entry("D", "demo data for this run", "simulated weather for this run, without a network (as --demo; always labelled)",
              [bind(.character("D"), .useDemoData)]),
        entry("?", "this help", "help", [bind(.character("?"), .help)], hint: .text(key: "?", word: "help")),
        entry("^L", "redraw", "redraw the screen", [bind(.control("l"), .redraw, in: [.anywhere])]),
        entry("q ^C", "quit", "quit (Ctrl-C anywhere)", [bind(.character("q"), .quit), bind(.control("c"), .quit, in: [.anywhere])],
              hint: .text(key: "q", word: "quit")),
    ]

    private static func entry(_ label: String, _ summary: String, _ detail: String, _ bindings: [KeyBinding],
                              hint: KeymapEntry.Hint? = nil) -> KeymapEntry {
        KeymapEntry(label: label, summary: summary, detail: detail, bindings: bindings, hint: hint)
    }

    private static func bind(_ key: Key, _ action: KeyAction, in contexts: [KeyContext] = [.table]) -> KeyBinding {
        KeyBinding(key: key, action: action, contexts: contexts)
    }

    private static let actions: [KeyContext: [Key: KeyAction]] = {
        var table: [KeyContext: [Key: KeyAction]] = [:]
        for binding in entries.flatMap(\.bindings) {
            for context in binding.contexts { table[context, default: [:]][binding.key] = binding.action }
        }
        return table
    }()

    /// What `key` does in `context`, if anything. Bindings for `.anywhere` win.
    public static func action(for key: Key, in context: KeyContext) -> KeyAction? {
        actions[.anywhere]?[key] ?? actions[context]?[key]
    }

    /// The label in plain ASCII, for terminals without Unicode.
    public static func ascii(_ text: String) -> String {
        text.replacingOccurrences(of: "↓ ↑", with: "Down Up").replacingOccurrences(of: "↑↓", with: "Up/Down")
            .replacingOccurrences(of: "↔", with: "<->").replacingOccurrences(of: "↵", with: "Enter")
            .replacingOccurrences(of: "°", with: "")
    }

    /// Lines of the help overlay: a line an entry, a blank, and the icon legend (two lines).
    public static var helpLineCount: Int { entries.count + 3 }

    /// The KEYS section of `--help`.
    public static var helpText: String {
        entries.map { "  " + $0.label.padding(toLength: 18, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n")
    }

    /// README's key table, as Markdown.
    public static var markdownTable: String {
        (["| key | does |", "|---|---|"] + entries.map { "| \($0.label) | \($0.detail) |" }).joined(separator: "\n")
    }
}
