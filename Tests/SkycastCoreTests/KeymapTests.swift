import Foundation
import XCTest
@testable import SkycastCore

final class KeymapTests: XCTestCase {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md").standardized

    /// README's key table is the keymap's, line for line (`SKYCAST_UPDATE_README=1` rewrites it).
    func testReadmeKeyTableMatchesTheKeymap() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "| key | does |") else { return XCTFail("README has no key table") }
        let end = lines[start...].firstIndex { !$0.hasPrefix("|") } ?? lines.count
        let table = lines[start..<end].joined(separator: "\n")
        if table != Keymap.markdownTable, ProcessInfo.processInfo.environment["SKYCAST_UPDATE_README"] == "1" {
            let updated = lines[..<start] + [Keymap.markdownTable] + lines[end...]
            try updated.joined(separator: "\n").write(to: Self.readme, atomically: true, encoding: .utf8)
            return
        }
        XCTAssertEqual(table, Keymap.markdownTable)
    }

    func testEveryKeyHasOneActionPerContext() {
        for context in [KeyContext.table, .details, .anywhere] {
            var seen: [Key: KeyAction] = [:]
            for binding in Keymap.entries.flatMap(\.bindings) where binding.contexts.contains(context) {
                XCTAssertNil(seen[binding.key], "\(binding.key) is bound twice in \(context)")
                seen[binding.key] = binding.action
            }
        }
        XCTAssertEqual(Keymap.action(for: .control("c"), in: .table), .quit)
        XCTAssertEqual(Keymap.action(for: .control("c"), in: .details), .quit, "Ctrl-C quits anywhere")
        XCTAssertEqual(Keymap.action(for: .character("q"), in: .details), .back)
        XCTAssertEqual(Keymap.action(for: .escape, in: .table), .dismiss)
        XCTAssertNil(Keymap.action(for: .character("J"), in: .details))
        XCTAssertTrue(Keymap.helpText.contains("  J K               move a bookmark down / up"))
        XCTAssertEqual(Keymap.ascii("j k ↓ ↑"), "j k Down Up")
    }
}
