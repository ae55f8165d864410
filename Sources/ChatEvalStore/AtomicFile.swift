import Foundation

/// Replaces a file so that a reader — or a crash — sees the old content or the new, never a mix:
/// the data goes to a temporary file in the same folder, is synced to disk, and is renamed over
/// the target (then the folder is synced, so the rename itself survives a power cut).
///
/// POSIX calls rather than `Data.write(options: .atomic)`, which neither syncs nor says why it
/// failed ("error 512"): a full disk must be reported as one, naming the file.
public enum AtomicFile {
    public static func write(_ data: Data, to url: URL) throws(ResultWriteError) {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ResultWriteError(path: url.path, reason: lastError()) }
        var failure = writeAll(data, to: descriptor)
        close(descriptor)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = lastError() }
        if let failure {
            unlink(temporary.path)
            throw ResultWriteError(path: url.path, reason: failure)
        }
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Writes all of `data` to `descriptor` (again where a write was interrupted or short) and
    /// syncs it to disk; what failed (`lastError`), or nil.
    static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
        var failure: String?
        data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    failure = lastError()
                    return
                }
                written += count
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = lastError() }
        return failure
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
