import CityData
import Foundation
import Models
import Storage

/// The bundled offline city catalog: 34,006 GeoNames cities, their countries and their alternate
/// names in every script, read in place from a prebuilt index mapped into memory
/// (`CatalogIndexFormat`). Opening it costs a `stat` of the sources and an `mmap`; nothing is parsed
/// and no per-process dictionary is built. The index is built on first use (or when the data
/// changes) into the cache folder.
///
/// Nothing in the file is trusted: the header is checked, and every offset read from the body is
/// bounds-checked where it is used, so a damaged file gives wrong answers at worst, never a crash.
public struct Catalog: Sendable {
    let storage: CatalogStorage
    /// Cities sorted by population, largest first: a city's index is its population rank.
    public let count: Int
    /// Each section's bytes in the file, by `Section.rawValue`.
    let sections: [Range<Int>]

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

    static let sourceFiles = ["cities.tsv", "city-names.tsv", "countries.tsv"]

    /// The catalog from the index in `indexDirectory` (the cache folder), built there from the
    /// bundled data first when it is missing, out of date or damaged. Where the folder cannot be
    /// written, the index is built in memory for this process.
    public static func open(indexDirectory: URL) throws(LoadError) -> Catalog {
        let (file, stamp) = try indexFile(in: indexDirectory)
        if let catalog = mapped(file, stamp: stamp) { return catalog }
        let bytes = CatalogIndexBuilder.build(citiesTSV: try bundledBytes("cities.tsv"), cityNamesTSV: try bundledBytes("city-names.tsv"),
                                              countriesTSV: try bundledBytes("countries.tsv"), stamp: stamp)
        try? FileManager.default.createDirectory(at: indexDirectory, withIntermediateDirectories: true)
        if (try? AtomicFile.write(Data(bytes), to: file)) != nil, let catalog = mapped(file, stamp: stamp) {
            return catalog
        }
        guard let catalog = Catalog(storage: CatalogStorage(bytes: bytes), expecting: stamp) else { throw .empty("cities.tsv") }
        return catalog
    }

    /// The catalog when its index is in `indexDirectory` and current: a millisecond, so the table
    /// can search from its first frame. Nil when it would have to be built.
    public static func openPrebuilt(indexDirectory: URL) -> Catalog? {
        guard let (file, stamp) = try? indexFile(in: indexDirectory) else { return nil }
        return mapped(file, stamp: stamp)
    }

    /// Where the index of the bundled data lives, and the stamp of the sources it must match.
    private static func indexFile(in directory: URL) throws(LoadError) -> (URL, CatalogIndexFormat.SourceStamp) {
        let folder: URL
        switch CityData.location {
        case let .found(found): folder = found
        case let .notFound(searched): throw .dataNotFound(searched: searched)
        }
        guard let stamp = CatalogIndexFormat.SourceStamp.of(sourceFiles.map { folder.appendingPathComponent($0) }) else {
            throw .unreadable(sourceFiles.joined(separator: ", "), "cannot stat the files in \(folder.path)")
        }
        return (directory.appendingPathComponent("catalog-v\(CatalogIndexFormat.version).index"), stamp)
    }

    private static func mapped(_ file: URL, stamp: CatalogIndexFormat.SourceStamp) -> Catalog? {
        CatalogStorage(mapping: file).flatMap { Catalog(storage: $0, expecting: stamp) }
    }

    /// Reads the header: a catalog only when the file is complete, of this version, built from
    /// these sources, and every section lies within it.
    init?(storage: CatalogStorage, expecting stamp: CatalogIndexFormat.SourceStamp) {
        let bytes = storage.bytes
        guard bytes.count >= CatalogIndexFormat.headerSize,
              Array(bytes[0..<8]) == CatalogIndexFormat.magic,
              bytes.load(fromByteOffset: CatalogIndexFormat.Offset.version, as: UInt32.self) == CatalogIndexFormat.version,
              bytes.load(fromByteOffset: CatalogIndexFormat.Offset.fileLength, as: UInt64.self) == UInt64(bytes.count) else { return nil }
        let stored = (0..<stamp.files.count).map { index in
            (size: bytes.load(fromByteOffset: CatalogIndexFormat.Offset.stamps + 16 * index, as: UInt64.self),
             modified: Int64(bitPattern: bytes.load(fromByteOffset: CatalogIndexFormat.Offset.stamps + 16 * index + 8, as: UInt64.self)))
        }
        guard CatalogIndexFormat.SourceStamp(files: stored) == stamp else { return nil }
        var sections: [Range<Int>] = []
        for section in CatalogIndexFormat.Section.allCases {
            let at = CatalogIndexFormat.Offset.sections + 16 * section.rawValue
            let offset = bytes.load(fromByteOffset: at, as: UInt64.self)
            let length = bytes.load(fromByteOffset: at + 8, as: UInt64.self)
            guard offset % 8 == 0, offset >= UInt64(CatalogIndexFormat.headerSize), length <= UInt64(bytes.count),
                  offset <= UInt64(bytes.count) - length else { return nil }
            sections.append(Int(offset)..<Int(offset + length))
        }
        func size(_ section: CatalogIndexFormat.Section) -> Int { sections[section.rawValue].count }
        let count = Int(bytes.load(fromByteOffset: CatalogIndexFormat.Offset.cityCount, as: UInt32.self))
        guard count > 0, size(.cities) == count * CatalogIndexFormat.cityRecordSize,
              size(.typoStarts) == (count + 1) * 4, size(.idIndex) == count * 8,
              size(.stringOffsets) >= 4, size(.stringOffsets) % 4 == 0,
              size(.primaryEntries) % CatalogIndexFormat.entrySize == 0,
              size(.alternateEntries) % CatalogIndexFormat.entrySize == 0,
              size(.countries) % 12 == 0 else { return nil }
        self.storage = storage
        self.count = count
        self.sections = sections
    }

    /// The bytes of one of the bundled files.
    static func bundledBytes(_ file: String) throws(LoadError) -> [UInt8] {
        let url: URL
        switch CityData.location {
        case let .found(folder): url = folder.appendingPathComponent(file)
        case let .notFound(searched): throw .dataNotFound(searched: searched)
        }
        // Read straight into the array: going through Data would hold the file twice at the peak.
        let descriptor = Glibc.open(url.path, O_RDONLY)
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
        guard !bytes.isEmpty else { throw .empty(file) }
        return bytes
    }

    // MARK: - Reading in place

    func section(_ section: CatalogIndexFormat.Section) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage.bytes[sections[section.rawValue]])
    }

    /// A little-endian UInt32 at `index` of a section of UInt32s; 0 past its end.
    func word(_ section: CatalogIndexFormat.Section, _ index: Int) -> UInt32 {
        let buffer = self.section(section)
        guard index >= 0, index * 4 + 4 <= buffer.count else { return 0 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
    }

    /// The bytes of string `id` of the string table; empty when the id or its offsets are out of bounds.
    func stringBytes(_ id: UInt32) -> UnsafeRawBufferPointer {
        let table = section(.stringBytes)
        let start = Int(word(.stringOffsets, Int(id))), end = Int(word(.stringOffsets, Int(id) + 1))
        guard Int(id) + 1 < section(.stringOffsets).count / 4, start <= end, end <= table.count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: table[start..<end])
    }

    func string(_ id: UInt32) -> String {
        String(decoding: stringBytes(id), as: UTF8.self)
    }

    /// Field `field` (a UInt32) of city `index`'s record.
    func recordWord(_ index: Int, _ field: Int) -> UInt32 {
        let records = section(.cities)
        return UInt32(littleEndian: records.loadUnaligned(fromByteOffset: index * CatalogIndexFormat.cityRecordSize + field, as: UInt32.self))
    }

    enum Field {
        static let id = 0, population = 4, latitude = 8, longitude = 16, name = 24, admin1 = 28, foldedAdmin1 = 32
        static let timeZone = 36, countryCode = 40, country = 44
    }

    /// The city at population rank `index` (0 ..< count).
    public func city(at index: Int) -> City {
        precondition(index >= 0 && index < count, "city index \(index) out of 0..<\(count)")
        let records = section(.cities)
        let base = index * CatalogIndexFormat.cityRecordSize
        let latitude = Double(bitPattern: UInt64(littleEndian: records.loadUnaligned(fromByteOffset: base + Field.latitude, as: UInt64.self)))
        let longitude = Double(bitPattern: UInt64(littleEndian: records.loadUnaligned(fromByteOffset: base + Field.longitude, as: UInt64.self)))
        let code = string(recordWord(index, Field.countryCode))
        let country = recordWord(index, Field.country)
        return City(id: Int(recordWord(index, Field.id)), name: string(recordWord(index, Field.name)), countryCode: code,
                    countryName: country == UInt32.max ? code : string(word(.countries, Int(country) * 3 + 1)),
                    admin1: string(recordWord(index, Field.admin1)), latitude: latitude, longitude: longitude,
                    timeZone: string(recordWord(index, Field.timeZone)), population: Int(recordWord(index, Field.population)))
    }

    /// The catalog city with this GeoNames id (a binary search of the id index).
    public func city(id: Int) -> City? {
        guard let wanted = UInt32(exactly: id) else { return nil }
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            let found = word(.idIndex, middle * 2)
            if found == wanted {
                let index = Int(word(.idIndex, middle * 2 + 1))
                return index < count ? city(at: index) : nil
            }
            if found < wanted { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The city a time zone is named for ("Asia/Seoul" → Seoul), else the zone's most populous city.
    /// Offline: a first run can show the user's own city without asking anyone where they are.
    public func city(namedByTimeZone zone: String) -> City? {
        let wanted = Array(zone.utf8)
        let namePart = zone.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ").lowercased() } ?? ""
        var mostPopulous: Int?
        for index in 0..<count where stringBytes(recordWord(index, Field.timeZone)).elementsEqual(wanted) {
            // Cities are sorted by population: the first in the zone is its largest.
            if mostPopulous == nil { mostPopulous = index }
            if string(recordWord(index, Field.name)).lowercased() == namePart { return city(at: index) }
        }
        return mostPopulous.map(city(at:))
    }

    /// The bytes of the index in memory (mapped: the kernel pages in only what is read).
    public var indexBytes: Int { storage.bytes.count }
}

/// The index's bytes: a read-only mapping of the file, or (where the cache cannot be written) an
/// allocation of this process. Immutable once made.
final class CatalogStorage: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    private let unmap: Bool

    init?(mapping file: URL) {
        let descriptor = Glibc.open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= CatalogIndexFormat.headerSize,
              let address = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else { return nil }
        bytes = UnsafeRawBufferPointer(start: address, count: Int(status.st_size))
        unmap = true
    }

    init(bytes source: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 8)
        source.withUnsafeBytes { buffer.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(start: buffer.baseAddress, count: source.count)
        unmap = false
    }

    deinit {
        if unmap {
            munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
        } else {
            UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.deallocate()
        }
    }
}
