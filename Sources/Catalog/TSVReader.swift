import Foundation

/// A byte-level reader of the bundled tab-separated files: no `String.split`, which is ~20× slower
/// on the 2.7 MB city file. Fields are handed out as byte ranges of the buffer.
struct TSVReader {
    let bytes: [UInt8]

    /// Calls `row` with the field ranges of each line after the header. Lines with another number of
    /// fields than `columns` are skipped (and counted), so a damaged file loses rows, never the run.
    @discardableResult
    func forEachRow(columns: Int, _ row: (_ fields: UnsafeBufferPointer<Range<Int>>) -> Void) -> (rows: Int, skipped: Int) {
        var rows = 0
        var skipped = 0
        var fields = [Range<Int>](repeating: 0..<0, count: columns)
        bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            var position = 0
            // Skip the header line.
            while position < count && buffer[position] != 0x0A { position += 1 }
            position += 1
            while position < count {
                var field = 0
                var fieldStart = position
                var valid = true
                while position < count && buffer[position] != 0x0A {
                    if buffer[position] == 0x09 {
                        if field < columns { fields[field] = fieldStart..<position } else { valid = false }
                        field += 1
                        fieldStart = position + 1
                    }
                    position += 1
                }
                var end = position
                if end > fieldStart && buffer[end - 1] == 0x0D { end -= 1 }
                if field < columns { fields[field] = fieldStart..<end }
                field += 1
                position += 1
                if end == fieldStart && field == 1 { continue }  // blank line
                if valid && field == columns {
                    rows += 1
                    fields.withUnsafeBufferPointer { row($0) }
                } else {
                    skipped += 1
                }
            }
        }
        return (rows, skipped)
    }

    func fold(_ range: Range<Int>, with folder: inout TextFolder) -> [UInt8] {
        bytes.withUnsafeBufferPointer { folder.fold(utf8: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    func integer(_ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        var value = 0
        var negative = false
        for index in range {
            let byte = bytes[index]
            if byte == 0x2D && index == range.lowerBound { negative = true; continue }
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value &* 10 &+ Int(byte - 0x30)
        }
        return negative ? -value : value
    }

    /// A decimal such as `-23.5475`. With at most 15 significant digits the mantissa and the power of
    /// ten are both exact doubles, so one division gives the correctly rounded value, without the
    /// String that `Double(_:)` needs; anything else goes through `Double(_:)`.
    func double(_ range: Range<Int>) -> Double? {
        guard !range.isEmpty, range.count < 32 else { return nil }
        var mantissa = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var negative = false
        for index in range {
            let byte = bytes[index]
            switch byte {
            case 0x30...0x39:
                mantissa = mantissa * 10 + Int(byte - 0x30)
                digits += 1
                if seenPoint { fractionDigits += 1 }
            case 0x2E where !seenPoint:
                seenPoint = true
            case 0x2D where index == range.lowerBound:
                negative = true
            default:
                return Double(string(range))
            }
        }
        guard digits > 0, digits <= 15 else { return Double(string(range)) }
        let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { pow(10, Double($0)) }
}
