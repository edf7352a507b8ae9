import Models

/// One search result: a city and how well the query matched it.
public struct CityMatch: Sendable, Hashable {
    /// How the query matched, best first: the ranking's primary key.
    public enum Kind: Int, Sendable, Comparable, CustomStringConvertible {
        /// The query is a whole name of the city (primary, ASCII or alternate), after folding.
        case wholeName
        /// The query starts the city's own name (primary or ASCII).
        case namePrefix
        /// The query starts one of its alternate names. Ranked after its own names: "san" should
        /// offer San Antonio before Shanghai, whose alternate names include "Sanghaj".
        case alternateNamePrefix
        /// The query starts a later word of a name ("york" → New York City).
        case wordPrefix
        /// One edit away from a name or its start (a swap of neighbouring letters counts as one).
        case typo
        /// Found by the online geocoder, not in the offline catalog.
        case online

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String {
            switch self {
            case .wholeName: return "name"
            case .namePrefix: return "prefix"
            case .alternateNamePrefix: return "alternate-prefix"
            case .wordPrefix: return "word"
            case .typo: return "typo"
            case .online: return "online"
            }
        }
    }

    public var city: City
    public var kind: Kind

    public init(city: City, kind: Kind) {
        self.city = city
        self.kind = kind
    }
}

/// Why a query was not searched.
public enum SearchQueryError: Error, Equatable, CustomStringConvertible {
    case empty
    case tooLong(characters: Int)

    public var description: String {
        switch self {
        case .empty: return "type part of a city name"
        case let .tooLong(characters):
            return "the query is \(characters) characters long; at most \(Catalog.maximumQueryLength) are searched"
        }
    }
}

extension Catalog {
    public static let maximumQueryLength = 200
    /// Typos are tolerated from this many folded characters on.
    static let typoMinimumLength = 4

    /// The best matches for `query`, best first: whole names, then name prefixes, then word prefixes,
    /// then typos; ties go to the larger population. Text after a comma qualifies the city by country
    /// code, country name or admin1 (`"Paris, Texas"`, `"Springfield, US"`).
    public func search(_ query: String, limit: Int = 10) throws(SearchQueryError) -> [CityMatch] {
        let characters = query.unicodeScalars.count
        guard characters <= Self.maximumQueryLength else { throw .tooLong(characters: characters) }
        var folder = TextFolder()
        let parts = query.split(separator: ",", omittingEmptySubsequences: false)
        let name = folder.fold(String(parts.first ?? ""))
        guard !name.isEmpty else { throw .empty }
        let qualifiers = parts.dropFirst().map { folder.fold(String($0)) }.filter { !$0.isEmpty }
        let limit = max(1, limit)

        var ranking = TopMatches(limit: limit)
        let rules = qualifiers.map(qualifierRule)
        let accept = { (city: Int) -> Bool in rules.allSatisfy { self.city(city, satisfies: $0) } }
        for (index, prefixKind) in [(primaryIndex, CityMatch.Kind.namePrefix), (alternateIndex, .alternateNamePrefix)] {
            let queryLength = name.count
            for position in index.range(withPrefix: name) {
                guard let entry = index.entry(position) else { continue }
                let kind: CityMatch.Kind = entry.kind == .word ? .wordPrefix
                    : Int(entry.length) == queryLength ? .wholeName : prefixKind
                let city = Int(entry.city)
                if ranking.wouldConsider(city: city, kind: kind) {
                    ranking.consider(city: city, kind: kind, accept: accept)
                }
            }
        }
        if !ranking.isFull && String(decoding: name, as: UTF8.self).unicodeScalars.count >= Self.typoMinimumLength {
            let arena = section(.typoArena)
            let starts = section(.typoStarts)
            name.withUnsafeBufferPointer { query in
                var start = Int(UInt32(littleEndian: starts.loadUnaligned(as: UInt32.self)))
                for city in 0..<count {
                    let end = Int(UInt32(littleEndian: starts.loadUnaligned(fromByteOffset: (city + 1) * 4, as: UInt32.self)))
                    defer { start = end }
                    guard start <= end, end <= arena.count, ranking.wouldConsider(city: city, kind: .typo) else { continue }
                    let keys = UnsafeBufferPointer(rebasing: arena.bindMemory(to: UInt8.self)[start..<end])
                    if Self.typoMatches(query: query, keys: keys) {
                        ranking.consider(city: city, kind: .typo, accept: accept)
                    }
                }
            }
        }
        return ranking.sorted.map { CityMatch(city: city(at: $0.city), kind: $0.kind) }
    }

    /// Local matches first, then online results whose ids the local ones lack (each id once).
    public static func merging(local: [CityMatch], online: [City], limit: Int) -> [CityMatch] {
        var seen = Set(local.map(\.city.id))
        var merged = local
        for city in online where seen.insert(city.id).inserted {
            merged.append(CityMatch(city: city, kind: .online))
        }
        return Array(merged.prefix(limit))
    }

    private static let countryAliases: [String: String] = ["usa": "US", "uk": "GB", "america": "US", "england": "GB"]

    /// How a qualifier after a comma narrows the cities.
    enum QualifierRule {
        /// Exactly a country's code, name or common alias: that country only ("Paris, FR" is never
        /// Parys in the Free State).
        case country(code: [UInt8])
        /// The start of a country's name or of a first-level division ("Paris, Tex").
        case prefix([UInt8])
    }

    func qualifierRule(_ qualifier: [UInt8]) -> QualifierRule {
        let text = String(decoding: qualifier, as: UTF8.self)
        if let alias = Self.countryAliases[text] { return .country(code: Array(alias.utf8)) }
        for country in 0..<(section(.countries).count / 12) {
            let code = stringBytes(word(.countries, country * 3))
            if (qualifier.count == 2 && code.count == 2 && zip(code, qualifier).allSatisfy({ $0 | 0x20 == $1 }))
                || stringBytes(word(.countries, country * 3 + 2)).elementsEqual(qualifier) {
                return .country(code: Array(code))
            }
        }
        return .prefix(qualifier)
    }

    private func city(_ index: Int, satisfies rule: QualifierRule) -> Bool {
        let code = stringBytes(recordWord(index, Field.countryCode))
        switch rule {
        case let .country(wanted):
            return code.elementsEqual(wanted)
        case let .prefix(qualifier):
            let country = recordWord(index, Field.country)
            if country != UInt32.max, stringBytes(word(.countries, Int(country) * 3 + 2)).starts(with: qualifier) { return true }
            return stringBytes(recordWord(index, Field.foldedAdmin1)).starts(with: qualifier)
        }
    }

    /// Whether `query` is within one edit of a name in `keys` (NUL-separated), or of its start.
    static func typoMatches(query: UnsafeBufferPointer<UInt8>, keys: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while start < keys.count {
            var end = start
            while end < keys.count && keys[end] != 0 { end += 1 }
            let nameLength = end - start
            for length in (query.count - 1)...(query.count + 1) where length <= nameLength {
                let prefix = UnsafeBufferPointer(rebasing: keys[start..<start + length])
                if isWithinOneEdit(query, prefix) { return true }
            }
            start = end + 1
        }
        return false
    }

    /// Optimal-string-alignment distance ≤ 1: one insertion, deletion, substitution, or swap of two
    /// neighbouring characters.
    static func isWithinOneEdit(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let countA = a.count, countB = b.count
        if countA - countB > 1 || countB - countA > 1 { return false }
        var i = 0
        while i < countA && i < countB && a[i] == b[i] { i += 1 }
        if i == countA && i == countB { return true }
        func equal(_ fromA: Int, _ fromB: Int) -> Bool {
            var x = fromA, y = fromB
            while x < countA && y < countB {
                if a[x] != b[y] { return false }
                x += 1; y += 1
            }
            return x == countA && y == countB
        }
        if countA == countB {
            if equal(i + 1, i + 1) { return true }  // substitution
            return i + 1 < countA && a[i] == b[i + 1] && a[i + 1] == b[i] && equal(i + 2, i + 2)
        }
        return countA > countB ? equal(i + 1, i) : equal(i, i + 1)
    }

    static func isWithinOneEdit(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in isWithinOneEdit(a, b) } }
    }
}

/// The best `limit` (kind, city) pairs seen so far, one per city, kept sorted: scanning a long run of
/// candidates costs one comparison each for all but the few that enter.
struct TopMatches {
    struct Candidate {
        var city: Int
        var kind: CityMatch.Kind

        func isBetter(than other: Candidate) -> Bool {
            kind != other.kind ? kind < other.kind : city < other.city
        }
    }

    let limit: Int
    private(set) var sorted: [Candidate] = []

    init(limit: Int) {
        self.limit = limit
        sorted.reserveCapacity(limit + 1)
    }

    var isFull: Bool { sorted.count >= limit }

    func wouldConsider(city: Int, kind: CityMatch.Kind) -> Bool {
        guard isFull, let worst = sorted.last else { return true }
        return Candidate(city: city, kind: kind).isBetter(than: worst)
    }

    mutating func consider(city: Int, kind: CityMatch.Kind, accept: (Int) -> Bool) {
        let candidate = Candidate(city: city, kind: kind)
        guard wouldConsider(city: city, kind: kind) else { return }
        if let existing = sorted.firstIndex(where: { $0.city == city }) {
            guard candidate.isBetter(than: sorted[existing]) else { return }
            sorted.remove(at: existing)
        } else if !accept(city) {
            return
        }
        let position = sorted.firstIndex { candidate.isBetter(than: $0) } ?? sorted.count
        sorted.insert(candidate, at: position)
        if sorted.count > limit { sorted.removeLast() }
    }
}
