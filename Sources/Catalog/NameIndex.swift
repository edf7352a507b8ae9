import Foundation

/// Folded names sorted by their bytes, so that every name with a given prefix is one contiguous run
/// found by binary search. All keys live in one byte arena to keep the index small. Built once into
/// the catalog index file; searches read it there (`NameIndexView`).
struct NameIndex: Sendable {
    enum Kind: UInt8, Sendable {
        /// The whole name of a city (primary, ASCII or alternate).
        case name
        /// The name from the start of one of its later words on ("york city" of "new york city").
        case word
    }

    /// Eight bytes in the file (start, city, length, kind): there are some 450,000 of these.
    struct Entry: Sendable {
        var start: UInt32
        var city: UInt16
        var length: UInt8
        var kind: Kind
    }

    /// Cities are numbered in 16 bits and keys measured in 8: the bundled catalog has 34,006 cities
    /// and no name longer than 255 bytes; a longer key is left out of the index.
    static let maximumCities = Int(UInt16.max) + 1

    private(set) var arena: [UInt8] = []
    private(set) var entries: [Entry] = []

    /// Adds a key; call `finish()` after the last one.
    mutating func add(_ key: ArraySlice<UInt8>, kind: Kind, city: Int) {
        guard !key.isEmpty, key.count <= Int(UInt8.max), city < Self.maximumCities else { return }
        entries.append(Entry(start: UInt32(arena.count), city: UInt16(city), length: UInt8(key.count), kind: kind))
        arena.append(contentsOf: key)
    }

    /// Adds `name` as a whole name, and each later word start as a word key.
    mutating func addName(_ name: [UInt8], city: Int, wordStarts: Bool) {
        add(name[...], kind: .name, city: city)
        guard wordStarts else { return }
        for index in name.indices.dropFirst() where Self.isWordSeparator(name[index - 1]) && !Self.isWordSeparator(name[index]) {
            add(name[index...], kind: .word, city: city)
        }
    }

    static func isWordSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x2D || byte == 0x27 || byte == 0x2F || byte == 0x28
    }

    mutating func finish() {
        arena.withUnsafeBufferPointer { arena in
            let base = arena.baseAddress!
            entries.sort { lhs, rhs in
                let order = memcmp(base + Int(lhs.start), base + Int(rhs.start), Int(min(lhs.length, rhs.length)))
                if order != 0 { return order < 0 }
                if lhs.length != rhs.length { return lhs.length < rhs.length }
                return lhs.city < rhs.city
            }
        }
        // Keys in the order of their entries: a binary search's later probes, close in the entries,
        // then read close bytes of the arena too (a few pages of the mapped file, not dozens).
        var sorted: [UInt8] = []
        sorted.reserveCapacity(arena.count)
        for index in entries.indices {
            let start = Int(entries[index].start)
            entries[index].start = UInt32(sorted.count)
            sorted.append(contentsOf: arena[start..<start + Int(entries[index].length)])
        }
        arena = sorted
    }
}

/// A sorted name index read in place from the catalog file. Every entry is checked before use: a
/// key outside the arena or a city out of range is skipped, so a damaged file cannot be read past.
struct NameIndexView {
    let arena: UnsafeRawBufferPointer
    let entries: UnsafeRawBufferPointer
    let cityCount: Int

    var count: Int { entries.count / CatalogIndexFormat.entrySize }

    /// Entry `index`, or nil when it points outside the arena or at no city.
    func entry(_ index: Int) -> NameIndex.Entry? {
        let base = index * CatalogIndexFormat.entrySize
        let start = UInt32(littleEndian: entries.loadUnaligned(fromByteOffset: base, as: UInt32.self))
        let city = UInt16(littleEndian: entries.loadUnaligned(fromByteOffset: base + 4, as: UInt16.self))
        let length = entries[base + 6]
        guard Int(start) + Int(length) <= arena.count, Int(city) < cityCount else { return nil }
        return NameIndex.Entry(start: start, city: city, length: length, kind: entries[base + 7] == NameIndex.Kind.word.rawValue ? .word : .name)
    }

    /// The run of entries whose keys start with `prefix` (two binary searches).
    func range(withPrefix prefix: [UInt8]) -> Range<Int> {
        guard !prefix.isEmpty, count > 0, let base = arena.baseAddress else { return 0..<0 }
        return prefix.withUnsafeBufferPointer { prefix in
            let query = prefix.baseAddress!
            let queryLength = prefix.count
            // The entry's key against the prefix, over the prefix's length: <0, 0 (starts with it), >0.
            // An unreadable entry sorts first: the search stays within bounds and skips it.
            func compare(_ index: Int) -> Int32 {
                guard let entry = entry(index) else { return -1 }
                let order = memcmp(base + Int(entry.start), query, min(Int(entry.length), queryLength))
                if order != 0 { return order }
                return Int(entry.length) < queryLength ? -1 : 0
            }
            func firstIndex(where isPast: (Int32) -> Bool) -> Int {
                var low = 0
                var high = count
                while low < high {
                    let middle = (low + high) >> 1
                    if isPast(compare(middle)) { high = middle } else { low = middle + 1 }
                }
                return low
            }
            return firstIndex { $0 >= 0 }..<firstIndex { $0 > 0 }
        }
    }
}

extension Catalog {
    /// How many indexed names start with the folded `query`, found by reading every key in turn:
    /// the plain baseline `skycast-bench search` measures the index against, so that its figure is
    /// a ratio that holds on any machine.
    public func countNamesByLinearScan(withPrefix query: String) -> Int {
        var folder = TextFolder()
        let prefix = folder.fold(query)
        var count = 0
        for index in [primaryIndex, alternateIndex] {
            for position in 0..<index.count {
                guard let entry = index.entry(position), Int(entry.length) >= prefix.count else { continue }
                let start = Int(entry.start)
                if prefix.indices.allSatisfy({ index.arena[start + $0] == prefix[$0] }) { count += 1 }
            }
        }
        return count
    }

    var primaryIndex: NameIndexView {
        NameIndexView(arena: section(.primaryArena), entries: section(.primaryEntries), cityCount: count)
    }

    var alternateIndex: NameIndexView {
        NameIndexView(arena: section(.alternateArena), entries: section(.alternateEntries), cityCount: count)
    }
}
