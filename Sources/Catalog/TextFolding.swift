import Foundation

/// Folds text for matching: lower case, no diacritics, compatibility forms (full-width letters)
/// mapped to their plain forms, runs of white space collapsed to one space, trimmed.
///
/// `"São  Paulo"` → `"sao paulo"`, `"MÜNCHEN"` → `"munchen"`, `"ＴＯＫＹＯ"` → `"tokyo"`.
/// ASCII takes a fast path; other characters are folded once each and remembered.
public struct TextFolder: Sendable {
    private var cache: [UInt32: [UInt8]] = [:]

    public init() {}

    /// The folded UTF-8 bytes of `text`.
    public mutating func fold(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        func emit(_ byte: UInt8) {
            if byte == 0x20 {
                pendingSpace = !output.isEmpty
                return
            }
            if pendingSpace { output.append(0x20); pendingSpace = false }
            output.append(byte)
        }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                var byte = UInt8(value)
                if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
                if byte == 0x09 || byte == 0x0A || byte == 0x0D { byte = 0x20 }
                if byte < 0x20 || byte == 0x7F { continue }
                emit(byte)
            } else {
                for byte in foldedBytes(of: scalar) { emit(byte) }
            }
        }
        return output
    }

    /// The folded form of UTF-8 `bytes`; ASCII (most names) is lower-cased in place of a String.
    mutating func fold(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var ascii = true
        for byte in bytes where byte >= 0x80 || byte < 0x20 || byte == 0x7F {
            ascii = false
            break
        }
        guard ascii else { return fold(String(decoding: bytes, as: UTF8.self)) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var pendingSpace = false
        for var byte in bytes {
            if byte == 0x20 {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace { output.append(0x20); pendingSpace = false }
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            output.append(byte)
        }
        return output
    }

    public mutating func foldedString(_ text: String) -> String {
        String(decoding: fold(text), as: UTF8.self)
    }

    private mutating func foldedBytes(of scalar: Unicode.Scalar) -> [UInt8] {
        if let known = cache[scalar.value] { return known }
        let folded = Self.foldUncached(scalar)
        cache[scalar.value] = folded
        return folded
    }

    /// Letters that do not decompose but that people type without their stroke or ligature.
    private static let specialLetters: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe",
        "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "ı": "i", "ħ": "h", "Ħ": "h",
    ]

    private static func foldUncached(_ scalar: Unicode.Scalar) -> [UInt8] {
        if let special = specialLetters[scalar] { return Array(special.utf8) }
        let properties = scalar.properties
        if properties.isWhitespace { return [0x20] }
        switch properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .spacingMark, .surrogate, .unassigned, .privateUse:
            return []
        default: break
        }
        let decomposed = String(scalar).decomposedStringWithCompatibilityMapping
        var result: [UInt8] = []
        for part in decomposed.unicodeScalars {
            switch part.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark, .control, .format: continue
            default: break
            }
            if part.properties.isWhitespace { result.append(0x20); continue }
            if let special = specialLetters[part] { result.append(contentsOf: special.utf8); continue }
            result.append(contentsOf: part.properties.lowercaseMapping.utf8)
        }
        return result
    }
}
