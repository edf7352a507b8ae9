/// Text made safe for a terminal and measured in terminal cells.
///
/// Pure functions shared by every module that puts text on screen or takes it from the network:
/// sanitising strips whatever could drive the terminal (C0/C1 controls, ESC/CSI/OSC sequences, bidi
/// overrides); widths follow wcwidth (East Asian wide characters 2 cells, combining marks 0, emoji with
/// default emoji presentation 2) so that columns line up whatever script a name is in.
public enum TerminalText {
    /// `text` without control characters, escape sequences, or bidi controls. Tabs and newlines become
    /// spaces; the payload of an escape sequence is dropped with it.
    public static func sanitized(_ text: String) -> String {
        var needsWork = false
        for scalar in text.unicodeScalars where isUnsafe(scalar) {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var result = String.UnicodeScalarView()
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar.value {
            case 0x1B:  // ESC: drop the whole sequence
                guard let next = iterator.next() else { break }
                switch next.value {
                case 0x5B:  // CSI: parameters and intermediates, then one final byte 0x40–0x7E
                    while let byte = iterator.next(), !(0x40...0x7E).contains(byte.value) {}
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // OSC, DCS, SOS, PM, APC: up to BEL or ST
                    skipString(&iterator)
                default: break  // two-character sequence: both dropped
                }
            case 0x9B:  // C1 CSI
                while let byte = iterator.next(), !(0x40...0x7E).contains(byte.value) {}
            case 0x9D, 0x90, 0x98, 0x9E, 0x9F:  // C1 OSC, DCS, SOS, PM, APC
                skipString(&iterator)
            case 0x09, 0x0A, 0x0D:
                result.append(" ")
            default:
                if !isUnsafe(scalar) { result.append(scalar) }
            }
        }
        return String(result)
    }

    private static func skipString(_ iterator: inout String.UnicodeScalarView.Iterator) {
        while let byte = iterator.next() {
            if byte.value == 0x07 || byte.value == 0x9C { return }
            if byte.value == 0x1B { _ = iterator.next(); return }
        }
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        // Bidi embeddings, overrides and isolates; line and paragraph separators.
        if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C || value == 0x2028 || value == 0x2029 {
            return true
        }
        return false
    }

    /// Terminal cells taken by one scalar: 0, 1 or 2.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value < 0x20 ? 0 : 1 }
        if value < 0xA0 { return 0 }
        if value == 0x200B || (0x200C...0x200F).contains(value) || value == 0xFEFF || (0xFE00...0xFE0F).contains(value) {
            return 0
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) { return 0 }  // Hangul medial vowels and final consonants
        if isWide(value) { return 2 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return 1
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
             0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Terminal cells taken by `text` (assumed sanitised).
    public static func width(_ text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += width(of: scalar) }
        return total
    }

    /// `text` cut to at most `cells` cells, ending in `…` when cut; a wide character is never split.
    public static func truncated(_ text: String, to cells: Int, ellipsis: String = "…") -> String {
        guard cells > 0 else { return "" }
        if width(text) <= cells { return text }
        let ellipsisWidth = width(ellipsis)
        guard cells > ellipsisWidth else { return String(repeating: ".", count: cells) }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let cellWidth = width(of: scalar)
            if used + cellWidth > cells - ellipsisWidth { break }
            result.append(scalar)
            used += cellWidth
        }
        return String(result) + ellipsis
    }

    /// `text` truncated or padded with spaces to exactly `cells` cells.
    public static func fitted(_ text: String, to cells: Int, alignRight: Bool = false, ellipsis: String = "…") -> String {
        let cut = truncated(text, to: cells, ellipsis: ellipsis)
        let padding = String(repeating: " ", count: max(0, cells - width(cut)))
        return alignRight ? padding + cut : cut + padding
    }
}
