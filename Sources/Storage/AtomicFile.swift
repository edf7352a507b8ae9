import Foundation

/// Files that readers see whole or not at all, and copies that never replace one another.
public enum AtomicFile {
    static let writeChunk = 65_536

    public struct Failure: Error, Sendable {
        public var message: String
    }

    /// Writes `data` so that readers see the old or the new content, never a part: a temporary file
    /// in the same directory, fsync, rename over the old one, fsync of the directory.
    public static func write(_ data: Data, to file: URL) throws(Failure) {
        let directory = file.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).tmp-\(getpid())")
        let descriptor = open(temporary.path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Failure(message: "cannot write \(file.path): \(String(cString: strerror(errno)))")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                // In pieces of 64 KB: one large write leaves the file in 2 MB page-cache folios, and a
                // process that maps the file (the catalog index) then pays 2 MB of RSS for each byte
                // it reads here and there.
                let result = Glibc.write(descriptor, buffer.baseAddress! + written, min(Self.writeChunk, buffer.count - written))
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                written += result
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        close(descriptor)
        if failure == nil, rename(temporary.path, file.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw Failure(message: "cannot write \(file.path): \(failure)")
        }
        syncDirectory(directory)
    }

    /// Moves `file` to `<name>.<suffix>`, or `<name>.<suffix>-2`, `-3`… when that is taken. A hard
    /// link refuses an existing name (rename would replace it), so an older copy is never lost, even
    /// when two processes keep a file aside in the same second.
    public static func keepAside(_ file: URL, suffix: String) throws(Failure) -> URL {
        let directory = file.deletingLastPathComponent()
        for attempt in 1...1_000 {
            let name = "\(file.lastPathComponent).\(suffix)" + (attempt == 1 ? "" : "-\(attempt)")
            let aside = directory.appendingPathComponent(name)
            if link(file.path, aside.path) == 0 {
                unlink(file.path)
                syncDirectory(directory)
                return aside
            }
            guard errno == EEXIST else { throw Failure(message: String(cString: strerror(errno))) }
        }
        throw Failure(message: "a thousand kept-aside copies already exist in \(directory.path)")
    }

    private static func syncDirectory(_ directory: URL) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}
