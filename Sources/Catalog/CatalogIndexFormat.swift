import Foundation

/// The layout of the prebuilt catalog index: one file, mapped into memory and read in place.
///
/// Little-endian. A 256-byte header, then sections, each starting on an 8-byte boundary:
///
/// | section | contents |
/// |---|---|
/// | cities | one 48-byte record a city, by population rank (see `CityRecord`) |
/// | stringOffsets, stringBytes | an interned string table: UInt32 starts (count + 1), then UTF-8 |
/// | primaryArena, primaryEntries | folded primary and ASCII names and their word starts, sorted (`NameIndex.Entry`, 8 bytes) |
/// | alternateArena, alternateEntries | folded alternate names, sorted |
/// | typoArena, typoStarts | per city, its folded primary and ASCII names (NUL-separated), for the typo pass |
/// | idIndex | (GeoNames id, city) pairs of UInt32, sorted by id |
/// | countries | (code, name, folded name) string ids, UInt32 each |
///
/// The header names the sources it was built from (size and modification time of each file, and a
/// hash of their bytes): a different source, a different format version, a wrong length or a
/// section out of bounds means the file is rebuilt, never read.
enum CatalogIndexFormat {
    static let magic: [UInt8] = Array("SKYCATIX".utf8)
    static let version: UInt32 = 1
    static let headerSize = 256
    static let cityRecordSize = 48
    static let entrySize = 8

    enum Section: Int, CaseIterable {
        case cities, stringOffsets, stringBytes, primaryArena, primaryEntries, alternateArena, alternateEntries
        case typoArena, typoStarts, idIndex, countries
    }

    /// The files an index was built from: a change to any of them means rebuilding.
    struct SourceStamp: Equatable {
        /// Size and modification time (nanoseconds) of cities.tsv, city-names.tsv, countries.tsv.
        var files: [(size: UInt64, modified: Int64)]

        static func == (lhs: SourceStamp, rhs: SourceStamp) -> Bool {
            lhs.files.count == rhs.files.count && zip(lhs.files, rhs.files).allSatisfy { $0.size == $1.size && $0.modified == $1.modified }
        }

        /// The stamp of the files in `folder`, or nil when one cannot be read.
        static func of(_ files: [URL]) -> SourceStamp? {
            var stamps: [(UInt64, Int64)] = []
            for file in files {
                var status = stat()
                guard stat(file.path, &status) == 0 else { return nil }
                stamps.append((UInt64(status.st_size), Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)))
            }
            return SourceStamp(files: stamps)
        }
    }

    /// Header fields, by byte offset.
    enum Offset {
        static let magic = 0
        static let version = 8
        static let cityCount = 12
        static let fileLength = 16
        static let sourceHash = 24
        static let stamps = 32        // 3 × (UInt64 size, Int64 modified)
        static let sections = 80      // Section.allCases.count × (UInt64 offset, UInt64 length)
    }

    /// FNV-1a over the sources' bytes, recorded when the index is built.
    static func hash(_ parts: [[UInt8]]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in parts {
            part.withUnsafeBufferPointer { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01B3
                }
            }
        }
        return hash
    }
}
