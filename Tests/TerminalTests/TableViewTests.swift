import DiffableSnapshot
import GoldenFiles
import SkycastCore
import TextLayout
import XCTest
@testable import Terminal

final class TableViewTests: XCTestCase {
    struct Row { var name: String; var condition: String; var temperature: Int; var starred: Bool }

    var rows: [String: Row] = [
        "seoul": Row(name: "서울", condition: "☁ Overcast", temperature: 4, starred: true),
        "tokyo": Row(name: "東京", condition: "☀ Clear sky", temperature: 11, starred: true),
        "saopaulo": Row(name: "São Paulo", condition: "☂ Light rain", temperature: 24, starred: false),
        "zurich": Row(name: "Zürich", condition: "❄ Snow", temperature: -3, starred: false),
        "emoji": Row(name: "Rain 🌧 town", condition: "☂ Rain", temperature: 9, starred: false),
        "long": Row(name: "서울특별시 Special City", condition: "☁ Overcast", temperature: 5, starred: false),
        "hostile": Row(name: "Evil\u{1B}[2J\u{1B}]0;pwn\u{07}Town\u{202E}", condition: "\u{9B}31m☂ Rain", temperature: 1, starred: false),
    ]

    func makeTable(_ capabilities: TerminalCapabilities) -> (DiffableDataSource<String, String>, TableView<String, String>) {
        let table = TableView<String, String>(cellProvider: { _, _ in StyledLine() })
        let source = DiffableDataSource(tableView: table, cellProvider: { [unowned self] item, width in
            let row = self.rows[item]!
            let glyphs = capabilities.glyphs
            var line = StyledLine()
            line.append(row.starred ? " \(glyphs.star) " : "   ", TextStyle(foreground: .yellow))
            let nameWidth = max(6, min(16, width - 22))
            line.append(TerminalText.fitted(TerminalText.sanitized(row.name), to: nameWidth, ellipsis: glyphs.ellipsis) + " ")
            line.append(TerminalText.fitted(TerminalText.sanitized(row.condition), to: 13) + " ")
            line.append(TerminalText.fitted("\(row.temperature)\(glyphs.degree)", to: 4, alignRight: true))
            return line
        }, sectionHeaderProvider: { $0 == "added" ? "added" : nil })
        return (source, table)
    }

    func snapshot(_ layout: [(String, [String])]) -> DiffableSnapshot<String, String> {
        var snapshot = DiffableSnapshot<String, String>()
        for (section, items) in layout {
            try! snapshot.appendSections([section])
            try! snapshot.appendItems(items, toSection: section)
        }
        return snapshot
    }

    /// The table's state after showing `snapshot`, as the app's state keeps it: the selection (or
    /// what stands where it was) scrolled into `height` lines.
    func reconciled(_ state: TableState<String>, _ snapshot: DiffableSnapshot<String, String>, previous: [String] = [],
                    height: Int) -> TableState<String> {
        var state = state
        let lines = TableLine.lines(snapshot.sectionIdentifiers.map { ($0, snapshot.itemIdentifiers(inSection: $0) ?? []) },
                                    hasHeader: { $0 == "added" })
        state.reconcile(lines: lines, previousItems: previous, height: height)
        return state
    }

    func assertGolden(_ screen: TestScreen, _ name: String, styles: Bool = false, line: UInt = #line) {
        let text = styles ? screen.text + "\n" + screen.styleMap : screen.text
        if let mismatch = Golden.mismatch(text, name: name, testFile: #filePath) { XCTFail(mismatch, line: line) }
    }

    static let full = TerminalCapabilities(colors: .full, unicode: true, animation: true)

    func testScriptsLineUpAt80x24() {
        let screen = TestScreen(size: TerminalSize(rows: 24, columns: 80), capabilities: Self.full)
        let (source, table) = makeTable(Self.full)
        source.apply(snapshot([("bookmarks", ["seoul", "tokyo"]), ("added", ["saopaulo", "zurich", "emoji", "long", "hostile"])]),
                     animatingDifferences: false, now: 0)
        table.render(on: screen, top: 0, width: 80, height: 24, header: StyledLine("   CITY             NOW            TEMP"),
                     state: TableState(selected: "seoul"), now: 0)
        assertGolden(screen, "table-80x24", styles: true)
        // The temperature column ends in the same cell on every row, whatever the script of the name.
        for row in [1, 2, 4, 5, 6, 7, 8] {
            XCTAssertEqual(TerminalText.width(screen.line(row)), 38, "row \(row): \(screen.line(row))")
        }
        XCTAssertFalse(screen.text.contains("\u{1B}"))
        XCTAssertTrue(screen.line(8).contains("EvilTown"))
    }

    func testNarrowAsciiNoColourAt40x12() {
        let capabilities = TerminalCapabilities(colors: .none, unicode: false, animation: true)
        let screen = TestScreen(size: TerminalSize(rows: 12, columns: 40), capabilities: capabilities)
        let (source, table) = makeTable(capabilities)
        source.apply(snapshot([("bookmarks", ["seoul", "tokyo"]), ("added", ["saopaulo", "zurich", "emoji", "long"])]),
                     animatingDifferences: false, now: 0)
        table.render(on: screen, top: 0, width: 40, height: 12, header: nil, state: TableState(selected: "seoul"), now: 0)
        assertGolden(screen, "table-40x12-ascii-nocolor", styles: true)
    }

    func testSelectionFollowsAMovedItemAndStaysVisible() {
        let screen = TestScreen(size: TerminalSize(rows: 6, columns: 40), capabilities: Self.full)
        let (source, table) = makeTable(Self.full)
        let before = snapshot([("bookmarks", ["seoul", "tokyo"]), ("added", ["saopaulo", "zurich", "emoji", "long"])])
        source.apply(before, now: 0)
        var state = reconciled(TableState(selected: "long"), before, height: 6)
        table.render(on: screen, top: 0, width: 40, height: 6, header: nil, state: state, now: 10)
        XCTAssertTrue(screen.text.contains("서울특별시"), "the selected row is scrolled into view")
        // "long" is bookmarked: it moves to the first section.
        let moved = snapshot([("bookmarks", ["seoul", "tokyo", "long"]), ("added", ["saopaulo", "zurich", "emoji"])])
        let diff = source.apply(moved, now: 10)
        XCTAssertEqual(diff.movedItems.count, 1)
        state = reconciled(state, moved, previous: before.itemIdentifiers, height: 6)
        XCTAssertEqual(state.selected, "long")
        table.render(on: screen, top: 0, width: 40, height: 6, header: nil, state: state, now: 10)
        assertGolden(screen, "selection-follows-move", styles: true)
        // Deleting the selected item selects what stands in its place.
        let deleted = snapshot([("bookmarks", ["seoul", "tokyo"]), ("added", ["saopaulo", "zurich", "emoji"])])
        source.apply(deleted, now: 11)
        state = reconciled(state, deleted, previous: moved.itemIdentifiers, height: 6)
        XCTAssertEqual(state.selected, "saopaulo")
        state.moveSelection(by: 10, in: deleted.itemIdentifiers)
        XCTAssertEqual(state.selected, "emoji")
        state = reconciled(state, deleted, previous: deleted.itemIdentifiers, height: 4)
        XCTAssertEqual(state.scrollOffset, 2, "the last of 6 lines is in view in 4")
        state.moveSelection(by: -10, in: deleted.itemIdentifiers)
        XCTAssertEqual(state.selected, "seoul")
        // The last row deleted: the one before it, now last, is selected.
        let shorter = snapshot([("bookmarks", ["seoul", "tokyo"]), ("added", ["saopaulo", "zurich"])])
        XCTAssertEqual(reconciled(TableState(selected: "emoji"), shorter, previous: deleted.itemIdentifiers, height: 6).selected, "zurich")
        // The first row of a section with a header: the header stays in view above it.
        var scrolled = TableState<String>(selected: "saopaulo")
        scrolled.scrollOffset = 5
        XCTAssertEqual(reconciled(scrolled, deleted, previous: deleted.itemIdentifiers, height: 3).scrollOffset, 2)
        // Nothing selected: the first row is.
        XCTAssertEqual(reconciled(TableState(), deleted, height: 6).selected, "seoul")
    }

    func testInsertedRowFadesAsAFunctionOfTime() {
        let (source, table) = makeTable(Self.full)
        source.apply(snapshot([("bookmarks", ["seoul", "tokyo"])]), now: 0)
        source.apply(snapshot([("bookmarks", ["seoul", "tokyo"]), ("added", ["zurich"])]), now: 100)
        var frames: [String] = []
        for t in [0.0, 0.4, 0.79, 0.81] {
            let screen = TestScreen(size: TerminalSize(rows: 5, columns: 40), capabilities: Self.full)
            table.render(on: screen, top: 0, width: 40, height: 5, header: nil, state: TableState(selected: "seoul"), now: 100 + t)
            frames.append("t=\(t)\n" + screen.styleMap)
            XCTAssertEqual(table.isAnimating(now: 100 + t), t < 0.8, "t=\(t)")
        }
        if let mismatch = Golden.mismatch(frames.joined(separator: "\n"), name: "fade-frames", testFile: #filePath) { XCTFail(mismatch) }
        // Six distinct steps over 0.8 s, then the terminal's own background.
        let steps = Set(stride(from: 0.0, to: 0.8, by: 0.01).compactMap { HighlightFade.style(elapsed: $0, capabilities: Self.full)?.background })
        XCTAssertGreaterThanOrEqual(steps.count, 6)
        XCTAssertNil(HighlightFade.style(elapsed: 0.8, capabilities: Self.full))
        let light = TerminalCapabilities(colors: .full, unicode: true, animation: true, lightBackground: true)
        XCTAssertEqual(HighlightFade.style(elapsed: 0.79, capabilities: light)?.background, Color(230), "pales on a light background")
        XCTAssertTrue(TerminalCapabilities.detect(environment: ["TERM": "xterm", "COLORFGBG": "0;15"], terminalColors: 256, overrides: .init()).lightBackground)
        XCTAssertFalse(TerminalCapabilities.detect(environment: ["TERM": "xterm", "COLORFGBG": "15;default;0"], terminalColors: 256, overrides: .init()).lightBackground)
        let sixteen = TerminalCapabilities(colors: .sixteen, unicode: true, animation: true)
        XCTAssertEqual(HighlightFade.style(elapsed: 0, capabilities: sixteen), TextStyle(reverse: true))
        XCTAssertEqual(HighlightFade.style(elapsed: 0.4, capabilities: sixteen), TextStyle(bold: true))
        XCTAssertNil(HighlightFade.style(elapsed: 0.6, capabilities: sixteen))
        let mono = TerminalCapabilities(colors: .none, unicode: true, animation: true)
        XCTAssertEqual(HighlightFade.style(elapsed: 0.1, capabilities: mono), TextStyle(bold: true))
        XCTAssertNil(HighlightFade.style(elapsed: 0.1, capabilities: TerminalCapabilities(colors: .full, unicode: true, animation: false)))
    }

    /// A reorder highlights only the rows the diff moved, not every row that shifted.
    func testOnlyMovedRowsAreMarked() {
        let (source, table) = makeTable(Self.full)
        source.apply(snapshot([("bookmarks", ["seoul", "tokyo", "saopaulo", "zurich", "emoji"])]), now: 0)
        let diff = source.apply(snapshot([("bookmarks", ["tokyo", "saopaulo", "zurich", "emoji", "seoul"])]), now: 10)
        XCTAssertEqual(diff.movedItems.count, 1, "one move, though five rows changed place")
        let blue = TextStyle(foreground: .black, background: Color(39))
        func markedRows(at time: Double, _ capabilities: TerminalCapabilities = TableViewTests.full) -> [String] {
            let screen = TestScreen(size: TerminalSize(rows: 6, columns: 40), capabilities: capabilities)
            table.render(on: screen, top: 0, width: 40, height: 6, header: nil, state: TableState(selected: "tokyo"), now: time)
            return (0..<6).filter { row in screen.cells[row].contains { $0.style.background == blue.background || $0.style.underline } }
                .map { screen.line($0).trimmingCharacters(in: .whitespaces) }
        }
        XCTAssertEqual(markedRows(at: 10.05).count, 1)
        XCTAssertTrue(markedRows(at: 10.05)[0].contains("서울"), "the moved row")
        XCTAssertTrue(table.isAnimating(now: 10.5))
        XCTAssertEqual(markedRows(at: 10.61), [], "over after 0.6 s")
        XCTAssertFalse(table.isAnimating(now: 10.61))
        XCTAssertEqual(HighlightFade.moveStyle(elapsed: 0.1, capabilities: TerminalCapabilities(colors: .none, unicode: true, animation: true)),
                       TextStyle(underline: true), "without colour: underlined, where an insert is bold")
        XCTAssertEqual(HighlightFade.moveStyle(elapsed: 0.1, capabilities: TerminalCapabilities(colors: .sixteen, unicode: true, animation: true)),
                       TextStyle(foreground: .white, background: .blue))
        XCTAssertNil(HighlightFade.moveStyle(elapsed: 0.1, capabilities: TerminalCapabilities(colors: .full, unicode: true, animation: false)))
        XCTAssertEqual(HighlightFade.moveStyle(elapsed: 0.55, capabilities: TerminalCapabilities(colors: .full, unicode: true, animation: true,
                                                                                               lightBackground: true))?.background, Color(231),
                       "pales on a light background")
    }

    func testReconfiguredRowsFlashAndNothingElseAnimates() {
        let (source, table) = makeTable(Self.full)
        source.apply(snapshot([("bookmarks", ["seoul", "tokyo"])]), now: 0)
        XCTAssertFalse(table.isAnimating(now: 1))
        rows["tokyo"]!.temperature = 12
        let diff = source.apply(snapshot([("bookmarks", ["seoul", "tokyo"])]), now: 5, isContentEqual: { $0 != "tokyo" })
        XCTAssertEqual(diff.reconfiguredItems, [ItemPath(section: 0, item: 1)])
        XCTAssertTrue(table.isAnimating(now: 5.1))
        XCTAssertFalse(table.isHighlighted("tokyo", now: 5.1))
        XCTAssertFalse(table.isAnimating(now: 5.5))
    }

    func testTinyScreensClipEverything() {
        let (source, table) = makeTable(Self.full)
        source.apply(snapshot([("bookmarks", ["seoul", "tokyo", "long"])]), now: 0)
        let expected: [(TerminalSize, String)] = [
            (TerminalSize(rows: 1, columns: 1), "."), (TerminalSize(rows: 0, columns: 0), ""), (TerminalSize(rows: 2, columns: 3), "HE…\n ★ "),
        ]
        for (size, text) in expected {
            let screen = TestScreen(size: size, capabilities: Self.full)
            table.render(on: screen, top: 0, width: size.columns, height: size.rows, header: StyledLine("HEADER"),
                         state: TableState(selected: "seoul"), now: 0)
            XCTAssertEqual(screen.text, text, "\(size)")
            // A wide character that does not fit in the last cell is not drawn half.
            screen.put("서울", row: 0, column: max(0, size.columns - 1), style: .plain)
            XCTAssertEqual(screen.text.split(separator: "\n").first.map { TerminalText.width(String($0)) } ?? 0,
                           min(size.columns, TerminalText.width(text.split(separator: "\n").first.map(String.init) ?? "")), "\(size)")
        }
    }

    func testCapabilitiesDetection() {
        let utf8 = ["TERM": "xterm-256color", "LANG": "C.UTF-8"]
        XCTAssertEqual(TerminalCapabilities.detect(environment: utf8, terminalColors: 256, overrides: .init()),
                       TerminalCapabilities(colors: .full, unicode: true, animation: true))
        XCTAssertEqual(TerminalCapabilities.detect(environment: utf8.merging(["NO_COLOR": "1"]) { $1 }, terminalColors: 256, overrides: .init()).colors, .none)
        XCTAssertEqual(TerminalCapabilities.detect(environment: utf8.merging(["NO_COLOR": ""]) { $1 }, terminalColors: 256, overrides: .init()).colors, .full)
        XCTAssertEqual(TerminalCapabilities.detect(environment: ["TERM": "dumb", "LANG": "C.UTF-8"], terminalColors: 8, overrides: .init()),
                       TerminalCapabilities(colors: .none, unicode: false, animation: false))
        XCTAssertFalse(TerminalCapabilities.detect(environment: ["TERM": "xterm", "LANG": "C"], terminalColors: 8, overrides: .init()).unicode)
        XCTAssertEqual(TerminalCapabilities.detect(environment: ["TERM": "xterm", "LC_ALL": "en_US.UTF-8", "LANG": "C"], terminalColors: 8,
                                                   overrides: .init()).colors, .eight)
        let overridden = TerminalCapabilities.detect(environment: utf8, terminalColors: 256,
                                                     overrides: .init(noColor: true, ascii: true, noAnimation: true))
        XCTAssertEqual(overridden, TerminalCapabilities(colors: .none, unicode: false, animation: false))
        XCTAssertEqual(Color.gold.nearest(among: 16), Color(11))
        XCTAssertEqual(Color(94).nearest(among: 8), Color(1))
    }

    func testKeyDecoding() {
        XCTAssertEqual(NCursesScreen.decodeCharacter(13), .enter)
        XCTAssertEqual(NCursesScreen.decodeCharacter(27), .escape)
        XCTAssertEqual(NCursesScreen.decodeCharacter(4), .control("d"))
        XCTAssertEqual(NCursesScreen.decodeCharacter(0xC5D0), .character("에"))
        XCTAssertEqual(NCursesScreen.decodeCharacter(127), .backspace)
    }
}
