/// Where a JSON document stops being JSON, for messages that point at the line
/// ("config.json: malformed JSON (line 3)"). Foundation's parser says only that it failed.
public enum JSONSyntax {
    /// The 1-based line of the first syntax error, or nil when `bytes` is well-formed JSON.
    public static func errorLine(in bytes: [UInt8]) -> Int? {
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func expect(_ literal: String) -> Bool {
            for byte in literal.utf8 {
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }
        func string() -> Bool {
            guard index < bytes.count, bytes[index] == 0x22 else { return false }
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case 0x22: index += 1; return true
                case 0x5C: index += 2
                case 0x00..<0x20: return false
                default: index += 1
                }
            }
            return false
        }
        func number() -> Bool {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) || [0x2D, 0x2B, 0x2E, 0x65, 0x45].contains(bytes[index]) { index += 1 }
            return index > start
        }
        func value(depth: Int) -> Bool {
            guard depth < 512 else { return false }
            skipSpace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case 0x7B: // {
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == 0x7D { index += 1; return true }
                while true {
                    skipSpace()
                    guard string() else { return false }
                    skipSpace()
                    guard expect(":"), value(depth: depth + 1) else { return false }
                    skipSpace()
                    if expect("}") { return true }
                    guard expect(",") else { return false }
                }
            case 0x5B: // [
                index += 1
                skipSpace()
                if index < bytes.count, bytes[index] == 0x5D { index += 1; return true }
                while true {
                    guard value(depth: depth + 1) else { return false }
                    skipSpace()
                    if expect("]") { return true }
                    guard expect(",") else { return false }
                }
            case 0x22: return string()
            case 0x74: return expect("true")
            case 0x66: return expect("false")
            case 0x6E: return expect("null")
            default: return number()
            }
        }
        let valid = value(depth: 0) && { skipSpace(); return index == bytes.count }()
        guard !valid else { return nil }
        let position = min(index, bytes.count)
        return bytes[..<position].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }
}
