import XCTest
import TextLayout

final class TerminalTextTests: XCTestCase {
    func testWidths() {
        XCTAssertEqual(TerminalText.width("Zürich"), 6)
        XCTAssertEqual(TerminalText.width("Zu\u{0308}rich"), 6, "a combining mark takes no cell")
        XCTAssertEqual(TerminalText.width("서울"), 4)
        XCTAssertEqual(TerminalText.width("東京"), 4)
        XCTAssertEqual(TerminalText.width("São Paulo"), 9)
        XCTAssertEqual(TerminalText.width("🌧"), 1, "no default emoji presentation: one cell, as glibc's wcwidth says")
        XCTAssertEqual(TerminalText.width("⚡"), 2)
        XCTAssertEqual(TerminalText.width("😀"), 2)
        XCTAssertEqual(TerminalText.width("☀☁☂❄★"), 5)
        XCTAssertEqual(TerminalText.width("ＴＯＫＹＯ"), 10)
    }

    func testTruncationNeverSplitsAWideCharacter() {
        XCTAssertEqual(TerminalText.truncated("서울특별시", to: 6), "서울…")
        XCTAssertEqual(TerminalText.width(TerminalText.truncated("서울특별시", to: 6)), 5)
        XCTAssertEqual(TerminalText.fitted("서울특별시", to: 6), "서울… ")
        XCTAssertEqual(TerminalText.fitted("Zürich", to: 8), "Zürich  ")
        XCTAssertEqual(TerminalText.fitted("4°", to: 4, alignRight: true), "  4°")
        XCTAssertEqual(TerminalText.truncated("London", to: 6), "London")
        XCTAssertEqual(TerminalText.truncated("London", to: 5), "Lond…")
        XCTAssertEqual(TerminalText.truncated("London", to: 0), "")
    }

    func testSanitisingRemovesEverythingThatDrivesTheTerminal() {
        XCTAssertEqual(TerminalText.sanitized("Paris"), "Paris")
        XCTAssertEqual(TerminalText.sanitized("Evil\u{1B}[2J\u{1B}[31mTown"), "EvilTown")
        XCTAssertEqual(TerminalText.sanitized("a\u{1B}]0;title\u{07}b"), "ab")
        XCTAssertEqual(TerminalText.sanitized("a\u{1B}]8;;http://x\u{1B}\\b"), "ab")
        XCTAssertEqual(TerminalText.sanitized("a\u{9B}31mb\u{85}c"), "abc")
        XCTAssertEqual(TerminalText.sanitized("abc\u{202E}fed\u{2066}x"), "abcfedx")
        XCTAssertEqual(TerminalText.sanitized("line\nbreak\ttab\u{0}\u{7F}"), "line break tab")
        XCTAssertEqual(TerminalText.sanitized("서울 \u{1B}P1;2|x\u{1B}\\ok"), "서울 ok")
        for scalar in TerminalText.sanitized("\u{1B}[\u{1B}\u{9D}\u{1B}x\u{1}\u{2}\u{1F}").unicodeScalars {
            XCTAssertFalse(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
        }
    }
}
