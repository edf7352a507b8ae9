import Foundation

/// Writes a file so that readers see the old or the new content, never a part: a temporary file in
/// the same directory, fsync, rename over the old one, fsync of the directory.
enum AtomicFile {
    static func write(_ data: Data, to file: URL) throws(BookmarkStore.StoreError) {
        let directory = file.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).tmp-\(getpid())")
        let descriptor = open(temporary.path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .init(message: "cannot write \(file.path): \(String(cString: strerror(errno)))")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
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
            throw .init(message: "cannot write \(file.path): \(failure)")
        }
        let directoryDescriptor = open(directory.path, O_RDONLY | O_DIRECTORY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}
