import Foundation
import Models

/// Builds the catalog index (`CatalogIndexFormat`) from the GeoNames files: parsed at byte level,
/// names folded once, keys sorted once. Runs when the index is missing or out of date; every other
/// process maps the result.
struct CatalogIndexBuilder {
    private var strings: [UInt8] = []
    private var stringOffsets: [UInt32] = [0]
    private var stringIDs: [[UInt8]: UInt32] = [:]

    /// The index bytes for these files' contents.
    static func build(citiesTSV: [UInt8], cityNamesTSV: [UInt8], countriesTSV: [UInt8],
                      stamp: CatalogIndexFormat.SourceStamp) -> [UInt8] {
        var builder = CatalogIndexBuilder()
        return builder.build(citiesTSV: citiesTSV, cityNamesTSV: cityNamesTSV, countriesTSV: countriesTSV, stamp: stamp)
    }

    /// Many cities share a time zone, an admin1 or a country: each string is stored once.
    private mutating func intern(_ bytes: [UInt8]) -> UInt32 {
        if let id = stringIDs[bytes] { return id }
        let id = UInt32(stringOffsets.count - 1)
        strings.append(contentsOf: bytes)
        stringOffsets.append(UInt32(strings.count))
        stringIDs[bytes] = id
        return id
    }

    private mutating func intern(_ text: String) -> UInt32 { intern(Array(text.utf8)) }

    private mutating func build(citiesTSV: [UInt8], cityNamesTSV: [UInt8], countriesTSV: [UInt8],
                                stamp: CatalogIndexFormat.SourceStamp) -> [UInt8] {
        var folder = TextFolder()
        var countryIndex: [[UInt8]: UInt32] = [:]
        var countries: [UInt32] = []
        let countryReader = TSVReader(bytes: countriesTSV)
        countryReader.forEachRow(columns: 2) { fields in
            let code = Array(countryReader.bytes[fields[0]])
            let name = countryReader.string(fields[1])
            countryIndex[code] = UInt32(countries.count / 3)
            countries += [intern(code), intern(name), intern(folder.fold(name))]
        }

        var records: [UInt8] = []
        records.reserveCapacity(34_100 * CatalogIndexFormat.cityRecordSize)
        var primary = NameIndex()
        var typoArena: [UInt8] = []
        var typoStarts: [UInt32] = [0]
        var ids: [(id: UInt32, city: UInt32)] = []
        var foldedAdmin1: [UInt32: UInt32] = [:]
        var cityCount = 0
        let reader = TSVReader(bytes: citiesTSV)
        reader.forEachRow(columns: 9) { fields in
            guard let id = reader.integer(fields[0]), let id32 = UInt32(exactly: id),
                  let latitude = reader.double(fields[5]), let longitude = reader.double(fields[6]),
                  cityCount < NameIndex.maximumCities else { return }
            let city = cityCount
            cityCount += 1
            let code = Array(reader.bytes[fields[3]])
            let admin1 = intern(Array(reader.bytes[fields[4]]))
            if foldedAdmin1[admin1] == nil { foldedAdmin1[admin1] = intern(reader.fold(fields[4], with: &folder)) }
            var record = RecordWriter(capacity: CatalogIndexFormat.cityRecordSize)
            record.put(id32)
            record.put(UInt32(clamping: max(0, reader.integer(fields[7]) ?? 0)))
            record.put(latitude.bitPattern)
            record.put(longitude.bitPattern)
            record.put(intern(Array(reader.bytes[fields[1]])))
            record.put(admin1)
            record.put(foldedAdmin1[admin1]!)
            record.put(intern(Array(reader.bytes[fields[8]])))
            record.put(intern(code))
            record.put(countryIndex[code] ?? UInt32.max)
            records += record.bytes
            ids.append((id32, UInt32(city)))

            let foldedName = reader.fold(fields[1], with: &folder)
            primary.addName(foldedName, city: city, wordStarts: true)
            typoArena += foldedName
            let foldedASCII = reader.fold(fields[2], with: &folder)
            if foldedASCII != foldedName {
                primary.addName(foldedASCII, city: city, wordStarts: true)
                typoArena.append(0)
                typoArena += foldedASCII
            }
            typoStarts.append(UInt32(typoArena.count))
        }
        primary.finish()

        ids.sort { $0.id < $1.id }
        var cityOfID: [UInt32: UInt32] = [:]
        for pair in ids { cityOfID[pair.id] = pair.city }
        var alternate = NameIndex()
        let namesReader = TSVReader(bytes: cityNamesTSV)
        namesReader.forEachRow(columns: 2) { fields in
            guard let id = namesReader.integer(fields[0]), let id32 = UInt32(exactly: id), let city = cityOfID[id32].map(Int.init) else { return }
            let names = fields[1]
            var start = names.lowerBound
            // The primary and ASCII names are in the primary index already.
            var seen: [[UInt8]] = typoArena[Int(typoStarts[city])..<Int(typoStarts[city + 1])].split(separator: 0).map(Array.init)
            for position in names.lowerBound...names.upperBound where position == names.upperBound || namesReader.bytes[position] == 0x2C {
                if position > start {
                    let folded = namesReader.fold(start..<position, with: &folder)
                    if !folded.isEmpty && !seen.contains(folded) {
                        seen.append(folded)
                        alternate.add(folded[...], kind: .name, city: city)
                    }
                }
                start = position + 1
            }
        }
        alternate.finish()

        var sections: [CatalogIndexFormat.Section: [UInt8]] = [:]
        sections[.cities] = records
        sections[.stringOffsets] = Self.bytes(of: stringOffsets)
        sections[.stringBytes] = strings
        sections[.primaryArena] = primary.arena
        sections[.primaryEntries] = Self.bytes(of: primary.entries)
        sections[.alternateArena] = alternate.arena
        sections[.alternateEntries] = Self.bytes(of: alternate.entries)
        sections[.typoArena] = typoArena
        sections[.typoStarts] = Self.bytes(of: typoStarts)
        sections[.idIndex] = Self.bytes(of: ids.flatMap { [$0.id, $0.city] })
        sections[.countries] = Self.bytes(of: countries)

        var file = [UInt8](repeating: 0, count: CatalogIndexFormat.headerSize)
        var table: [(offset: UInt64, length: UInt64)] = []
        for section in CatalogIndexFormat.Section.allCases {
            while file.count % 8 != 0 { file.append(0) }
            let bytes = sections[section] ?? []
            table.append((UInt64(file.count), UInt64(bytes.count)))
            file += bytes
        }
        var header = RecordWriter(capacity: CatalogIndexFormat.headerSize)
        header.bytes += CatalogIndexFormat.magic
        header.put(CatalogIndexFormat.version)
        header.put(UInt32(cityCount))
        header.put(UInt64(file.count))
        header.put(CatalogIndexFormat.hash([citiesTSV, cityNamesTSV, countriesTSV]))
        for stampFile in stamp.files {
            header.put(stampFile.size)
            header.put(UInt64(bitPattern: stampFile.modified))
        }
        for entry in table {
            header.put(entry.offset)
            header.put(entry.length)
        }
        file.replaceSubrange(0..<header.bytes.count, with: header.bytes)
        return file
    }

    private static func bytes(of values: [UInt32]) -> [UInt8] {
        var writer = RecordWriter(capacity: values.count * 4)
        for value in values { writer.put(value) }
        return writer.bytes
    }

    private static func bytes(of entries: [NameIndex.Entry]) -> [UInt8] {
        var writer = RecordWriter(capacity: entries.count * CatalogIndexFormat.entrySize)
        for entry in entries {
            writer.put(entry.start)
            writer.put(entry.city)
            writer.put(entry.length)
            writer.put(entry.kind.rawValue)
        }
        return writer.bytes
    }
}

/// Appends little-endian values.
struct RecordWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
}
