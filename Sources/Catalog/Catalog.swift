import CityData
import Foundation
import Models

/// The bundled offline city catalog: 34,006 GeoNames cities, their countries and, once loaded,
/// their alternate names in every script. An immutable value: loading the alternate names gives a
/// new catalog, so a UI can keep searching the old one meanwhile.
public struct Catalog: Sendable {
    /// Sorted by population, largest first: a city's index is its population rank.
    public let cities: [City]
    public let countryNames: [String: String]
    let primaryIndex: NameIndex
    private(set) var alternateIndex: NameIndex?
    /// Folded primary and ASCII names (NUL-separated) of city `i` at `typoKeyStarts[i]..<typoKeyStarts[i + 1]`,
    /// for the typo pass.
    let typoKeys: [UInt8]
    let typoKeyStarts: [Int32]
    /// Folded admin1 per city, as an index into `foldedAdmin1`.
    let admin1Key: [Int32]
    let foldedAdmin1: [[UInt8]]
    /// Folded country names by code.
    let foldedCountryNames: [String: [UInt8]]
    private let indexOfCityID: [Int: Int32]

    public var hasAlternateNames: Bool { alternateIndex != nil }

    public enum LoadError: Error, CustomStringConvertible {
        case dataNotFound(searched: [String])
        case unreadable(String, String)
        case empty(String)

        public var description: String {
            switch self {
            case let .dataNotFound(searched): return CityData.notFoundMessage(searched: searched)
            case let .unreadable(file, reason): return "cannot read the bundled city data \(file): \(reason)"
            case let .empty(file): return "the bundled city data \(file) has no rows"
            }
        }
    }

    /// Loads the bundled cities and countries (alternate names come later, see `loadingAlternateNames`).
    public static func loadBundled() throws(LoadError) -> Catalog {
        let cities = try bundledBytes("cities.tsv")
        let countries = try bundledBytes("countries.tsv")
        let catalog = Catalog(citiesTSV: cities, countriesTSV: countries)
        guard !catalog.cities.isEmpty else { throw .empty("cities.tsv") }
        return catalog
    }

    public static func bundledBytes(_ file: String) throws(LoadError) -> [UInt8] {
        let url: URL
        switch CityData.location {
        case let .found(folder): url = folder.appendingPathComponent(file)
        case let .notFound(searched): throw .dataNotFound(searched: searched)
        }
        // Read straight into the array: going through Data would hold the file twice at the peak.
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(file, String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(file, String(cString: strerror(errno))) }
        let size = Int(status.st_size)
        var failure: String?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = read(descriptor, buffer.baseAddress! + count, size - count)
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { failure = got < 0 ? String(cString: strerror(errno)) : "file shrank while reading"; break }
                count += got
            }
        }
        if let failure { throw .unreadable(file, failure) }
        return bytes
    }

    /// Builds a catalog from the bytes of `cities.tsv` and `countries.tsv`.
    public init(citiesTSV: [UInt8], countriesTSV: [UInt8]) {
        var countryNames: [String: String] = [:]
        let countryReader = TSVReader(bytes: countriesTSV)
        countryReader.forEachRow(columns: 2) { fields in
            countryNames[countryReader.string(fields[0])] = countryReader.string(fields[1])
        }
        var folder = TextFolder()
        var foldedCountries: [String: [UInt8]] = [:]
        for (code, name) in countryNames { foldedCountries[code] = folder.fold(name) }

        var cities: [City] = []
        cities.reserveCapacity(34_100)
        var index = NameIndex()
        var typoKeys: [UInt8] = []
        typoKeys.reserveCapacity(400_000)
        var typoKeyStarts: [Int32] = [0]
        typoKeyStarts.reserveCapacity(34_100)
        var admin1Key: [Int32] = []
        admin1Key.reserveCapacity(34_100)
        var admin1Numbers: [String: Int32] = [:]
        // Many cities share a time zone or admin1: share one string each.
        var internedTimeZones: [String: String] = [:]
        var internedAdmin1: [String: String] = [:]
        var foldedAdmin1: [[UInt8]] = []
        let reader = TSVReader(bytes: citiesTSV)
        reader.forEachRow(columns: 9) { fields in
            guard let id = reader.integer(fields[0]),
                  let latitude = reader.double(fields[5]), let longitude = reader.double(fields[6]) else { return }
            let name = reader.string(fields[1])
            let countryCode = reader.string(fields[3])
            let admin1 = Self.interned(reader.string(fields[4]), in: &internedAdmin1)
            let timeZone = Self.interned(reader.string(fields[8]), in: &internedTimeZones)
            let city = City(id: id, name: name, countryCode: countryCode,
                            countryName: countryNames[countryCode] ?? countryCode, admin1: admin1,
                            latitude: latitude, longitude: longitude, timeZone: timeZone,
                            population: reader.integer(fields[7]) ?? 0)
            let cityIndex = cities.count
            cities.append(city)
            let foldedName = reader.fold(fields[1], with: &folder)
            index.addName(foldedName, city: cityIndex, wordStarts: true)
            typoKeys.append(contentsOf: foldedName)
            let foldedASCII = reader.fold(fields[2], with: &folder)
            if foldedASCII != foldedName {
                index.addName(foldedASCII, city: cityIndex, wordStarts: true)
                typoKeys.append(0)
                typoKeys.append(contentsOf: foldedASCII)
            }
            typoKeyStarts.append(Int32(typoKeys.count))
            if let number = admin1Numbers[admin1] {
                admin1Key.append(number)
            } else {
                let number = Int32(foldedAdmin1.count)
                admin1Numbers[admin1] = number
                foldedAdmin1.append(folder.fold(admin1))
                admin1Key.append(number)
            }
        }
        index.finish()
        self.cities = cities
        self.countryNames = countryNames
        self.primaryIndex = index
        self.typoKeys = typoKeys.withUnsafeBufferPointer { Array($0) }
        self.typoKeyStarts = typoKeyStarts
        self.admin1Key = admin1Key
        self.foldedAdmin1 = foldedAdmin1
        self.foldedCountryNames = foldedCountries
        var indexOfCityID: [Int: Int32] = [:]
        indexOfCityID.reserveCapacity(cities.count)
        for (position, city) in cities.enumerated() { indexOfCityID[city.id] = Int32(position) }
        self.indexOfCityID = indexOfCityID
    }

    private static func interned(_ text: String, in table: inout [String: String]) -> String {
        if let shared = table[text] { return shared }
        table[text] = text
        return text
    }

    /// This catalog plus the alternate names of `city-names.tsv` (`geonameid`, comma-separated names).
    public func loadingAlternateNames(_ cityNamesTSV: [UInt8]) -> Catalog {
        var index = NameIndex()
        var folder = TextFolder()
        let reader = TSVReader(bytes: cityNamesTSV)
        reader.forEachRow(columns: 2) { fields in
            guard let id = reader.integer(fields[0]), let cityIndex = indexOfCityID[id] else { return }
            let names = fields[1]
            var start = names.lowerBound
            // The primary and ASCII names are in the primary index already.
            var seen: [[UInt8]] = typoKeys[Int(typoKeyStarts[Int(cityIndex)])..<Int(typoKeyStarts[Int(cityIndex) + 1])]
                .split(separator: 0).map(Array.init)
            for position in names.lowerBound...names.upperBound where position == names.upperBound || reader.bytes[position] == 0x2C {
                if position > start {
                    let folded = reader.fold(start..<position, with: &folder)
                    if !folded.isEmpty && !seen.contains(folded) {
                        seen.append(folded)
                        index.add(folded[...], kind: .name, city: Int(cityIndex))
                    }
                }
                start = position + 1
            }
        }
        index.finish()
        var copy = self
        copy.alternateIndex = index
        #if canImport(Glibc)
        // Folding 400,000 names leaves megabytes of freed scratch in malloc's heap; hand it back.
        _ = releaseFreedHeap(0)
        #endif
        return copy
    }

    /// The catalog city with this GeoNames id.
    public func city(id: Int) -> City? {
        indexOfCityID[id].map { cities[Int($0)] }
    }

    /// Approximate bytes held by the search indexes.
    public var indexMemoryBytes: Int {
        primaryIndex.memoryBytes + (alternateIndex?.memoryBytes ?? 0)
    }
}

#if canImport(Glibc)
/// glibc's `malloc_trim`, which Swift's Glibc module does not export.
@_silgen_name("malloc_trim")
private func releaseFreedHeap(_ pad: Int) -> Int32
#endif
