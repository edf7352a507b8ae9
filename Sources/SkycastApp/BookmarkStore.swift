import Foundation
import Models
import SkycastCore
import Storage

/// The bookmarked cities, ordered, in `$XDG_CONFIG_HOME/skycast/bookmarks.json`.
///
/// Every change re-reads the file under an exclusive lock, applies itself to what is there and writes
/// the result atomically (temporary file, fsync, rename): two skycast instances never lose each
/// other's bookmarks. A file that cannot be parsed is moved aside as `bookmarks.json.corrupt-<time>`
/// (with a number added when that name is taken) and reported, never overwritten. Reading never
/// needs write access: in a read-only folder the file is read as it is and every change is refused.
public struct BookmarkStore: Sendable {
    public struct Loaded: Sendable, Equatable {
        public var cities: [City]
        /// Set when the file was unreadable and moved aside.
        public var warning: String?
        /// The folder cannot be written: the file was read without the lock and no change can be saved.
        public var readOnly = false
    }

    public let file: URL

    public init(file: URL) {
        self.file = file
    }

    public static func standard(environment: [String: String]) -> BookmarkStore {
        BookmarkStore(file: XDGDirectories.config(environment: environment).appendingPathComponent("bookmarks.json"))
    }

    struct FileContents: Codable {
        var version: Int
        var bookmarks: [City]
    }

    /// What the table and the commands say when the bookmarks can be read but not saved.
    public var readOnlyNote: String { "bookmarks are read-only (\(file.path))" }

    private var directory: URL { file.deletingLastPathComponent() }

    /// True when the folder exists and cannot be written (a read-only mount, no permission).
    private var isReadOnly: Bool {
        FileManager.default.fileExists(atPath: directory.path) && access(directory.path, W_OK) != 0
    }

    /// The bookmarks on disk; none when there is no file yet.
    public func load() -> Loaded {
        if isReadOnly {
            // Nobody can write the file here, so there is nothing to lock against.
            do throws(BookmarkFailure) {
                var loaded = try read(canKeepAside: false)
                loaded.readOnly = true
                return loaded
            } catch {
                return Loaded(cities: [], warning: error.message, readOnly: true)
            }
        }
        do throws(BookmarkFailure) {
            return try withLock { () throws(BookmarkFailure) in try read(canKeepAside: true) }
        } catch {
            return Loaded(cities: [], warning: error.message)
        }
    }

    /// Applies `change` to the bookmarks on disk and returns the result. A refused or failed change
    /// reports what the file holds in `BookmarkFailure.onDisk` when it could be read.
    public func apply(_ change: BookmarkChange) throws(BookmarkFailure) -> Loaded {
        if isReadOnly {
            throw BookmarkFailure(message: "cannot save: \(readOnlyNote)", onDisk: load().cities)
        }
        return try withLock { () throws(BookmarkFailure) -> Loaded in
            var loaded = try read(canKeepAside: true)
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
            do throws(BookmarkFailure) {
                try write(cities)
            } catch {
                throw BookmarkFailure(message: error.message, onDisk: loaded.cities)
            }
            loaded.cities = cities
            return loaded
        }
    }

    private func read(canKeepAside: Bool) throws(BookmarkFailure) -> Loaded {
        guard FileManager.default.fileExists(atPath: file.path) else { return Loaded(cities: []) }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw BookmarkFailure(message: "cannot read \(file.path): \(Self.reason(error))")
        }
        if let contents = try? JSONDecoder().decode(FileContents.self, from: data) {
            var seen = Set<Int>()
            return Loaded(cities: contents.bookmarks.filter { seen.insert($0.id).inserted })
        }
        guard canKeepAside else {
            return Loaded(cities: [], warning: "\(file.path) is corrupt and cannot be kept aside (read-only); showing no bookmarks")
        }
        do throws(AtomicFile.Failure) {
            let aside = try AtomicFile.keepAside(file, suffix: "corrupt-\(Self.timestamp())")
            return Loaded(cities: [], warning: "bookmarks.json was corrupt; kept as \(aside.lastPathComponent)")
        } catch {
            throw BookmarkFailure(message: "\(file.path) is corrupt and could not be kept aside: \(error.message)")
        }
    }

    private func write(_ cities: [City]) throws(BookmarkFailure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(FileContents(version: 1, bookmarks: cities)) else {
            throw BookmarkFailure(message: "cannot encode the bookmarks")
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(data, to: file)
        } catch {
            throw BookmarkFailure(message: error.message)
        }
    }

    private func withLock<T>(_ body: () throws(BookmarkFailure) -> T) throws(BookmarkFailure) -> T {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw BookmarkFailure(message: "cannot create \(directory.path): \(Self.reason(error))")
        }
        let lockPath = directory.appendingPathComponent(".\(file.lastPathComponent).lock").path
        let descriptor = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw BookmarkFailure(message: "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw BookmarkFailure(message: "cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// What the system said, in its words ("Permission denied"), not Foundation's error domain and code.
    static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let posix = underlying, posix.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(posix.code))) }
        if (error as NSError).domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32((error as NSError).code))) }
        return (error as NSError).localizedFailureReason ?? "unreadable"
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }
}
