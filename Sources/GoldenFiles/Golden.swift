import Foundation

/// Golden-file comparison for screen tests. A golden is the expected screen as text, kept beside the
/// test in `Goldens/`. Run with `SKYCAST_UPDATE_GOLDENS=1` to write the current output instead, then
/// review the diff before committing it.
public enum Golden {
    /// Compares `actual` with the golden `name`; returns a description of the mismatch, or nil.
    public static func mismatch(_ actual: String, name: String, testFile: String) -> String? {
        let directory = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Goldens")
        let file = directory.appendingPathComponent(name + ".txt")
        let framed = actual + "\n"
        if ProcessInfo.processInfo.environment["SKYCAST_UPDATE_GOLDENS"] == "1" {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? framed.write(to: file, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            return "no golden \(file.path); run the tests with SKYCAST_UPDATE_GOLDENS=1 to create it, then review it:\n\(framed)"
        }
        guard expected != framed else { return nil }
        let expectedLines = expected.components(separatedBy: "\n")
        let actualLines = framed.components(separatedBy: "\n")
        var report = "screen differs from \(file.lastPathComponent) (SKYCAST_UPDATE_GOLDENS=1 rewrites it):\n"
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let want = index < expectedLines.count ? expectedLines[index] : "<none>"
            let got = index < actualLines.count ? actualLines[index] : "<none>"
            if want != got { report += "line \(index + 1)\n  expected: |\(want)|\n  actual:   |\(got)|\n" }
        }
        return report
    }
}
