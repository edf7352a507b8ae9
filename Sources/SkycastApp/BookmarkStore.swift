import Catalog
import Foundation

/// The bookmarked cities, ordered, in `$XDG_CONFIG_HOME/skycast/bookmarks.json`.
///
/// Every change re-reads the file under an exclusive lock, applies itself to what is there and writes
/// the result atomically (temporary file, fsync, rename): two skycast instances never lose each
/// other's bookmarks. A file that cannot be parsed is moved aside as `bookmarks.json.corrupt-<time>`
/// and reported, never overwritten.
public struct BookmarkStore: Sendable {
    public enum Change: Sendable, Equatable {
        case add(City)
        case remove(cityID: Int)
        case move(cityID: Int, toIndex: Int)
    }

    public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    public struct Loaded: Sendable, Equatable {
        public var cities: [City]
        /// Set when the file was unreadable and moved aside.
        public var warning: String?
    }

    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    /// `$XDG_CONFIG_HOME/skycast`, or `~/.config/skycast`.
    public static func configDirectory(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("skycast")
        }
        return URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config/skycast")
    }

    public static func standard(environment: [String: String]) -> BookmarkStore {
        BookmarkStore(file: configDirectory(environment: environment).appendingPathComponent("bookmarks.json"))
    }

    struct FileContents: Codable {
        var version: Int
        var bookmarks: [City]
    }

    /// The bookmarks on disk; none when there is no file yet.
    public func load() -> Loaded {
        do throws(StoreError) {
            return try withLock { () throws(StoreError) in try read() }
        } catch {
            return Loaded(cities: [], warning: error.message)
        }
    }

    /// Applies `change` to the bookmarks on disk and returns the result.
    public func apply(_ change: Change) throws(StoreError) -> Loaded {
        try withLock { () throws(StoreError) -> Loaded in
            var loaded = try read()
            var cities = loaded.cities
            switch change {
            case let .add(city):
                if !cities.contains(where: { $0.id == city.id }) { cities.append(city) }
            case let .remove(id):
                cities.removeAll { $0.id == id }
            case let .move(id, toIndex):
                if let from = cities.firstIndex(where: { $0.id == id }) {
                    let city = cities.remove(at: from)
                    cities.insert(city, at: min(max(0, toIndex), cities.count))
                }
            }
            try write(cities)
            loaded.cities = cities
            return loaded
        }
    }

    private func read() throws(StoreError) -> Loaded {
        guard FileManager.default.fileExists(atPath: file.path) else { return Loaded(cities: []) }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw StoreError(message: "cannot read \(file.path): \(error.localizedDescription)")
        }
        if let contents = try? JSONDecoder().decode(FileContents.self, from: data) {
            var seen = Set<Int>()
            return Loaded(cities: contents.bookmarks.filter { seen.insert($0.id).inserted })
        }
        let stamp = Self.timestamp()
        let aside = file.deletingLastPathComponent().appendingPathComponent("\(file.lastPathComponent).corrupt-\(stamp)")
        do {
            try FileManager.default.moveItem(at: file, to: aside)
        } catch {
            throw StoreError(message: "\(file.path) is corrupt and could not be moved aside: \(error.localizedDescription)")
        }
        return Loaded(cities: [], warning: "bookmarks.json was corrupt; kept as \(aside.lastPathComponent)")
    }

    private func write(_ cities: [City]) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(FileContents(version: 1, bookmarks: cities)) else {
            throw StoreError(message: "cannot encode the bookmarks")
        }
        try AtomicFile.write(data, to: file)
    }

    private func withLock<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let directory = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreError(message: "cannot create \(directory.path): \(error.localizedDescription)")
        }
        let lockPath = directory.appendingPathComponent(".\(file.lastPathComponent).lock").path
        let descriptor = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StoreError(message: "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreError(message: "cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }
}
