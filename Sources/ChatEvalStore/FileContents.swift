import ChatEvalCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A whole file's bytes, for the files ChatEval reads whole (journals, answers files, audits).
///
/// Why not `FileManager.contents(atPath:)` alone: on Linux, swift-corelibs-foundation reads a file
/// that reports size 0 in 4 KiB chunks and leaks the first chunk (found by `make fuzz`'s
/// LeakSanitizer on an empty journal). An empty regular file is answered here without it.
public enum FileContents {
    /// The bytes of the file at `path`, or nil when it cannot be read.
    public static func read(atPath path: String) -> Data? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if attributes?[.type] as? FileAttributeType == .typeRegular, (attributes?[.size] as? NSNumber)?.intValue == 0 {
            return FileManager.default.isReadableFile(atPath: path) ? Data() : nil
        }
        return FileManager.default.contents(atPath: path)
    }

    /// The size of the file at `path` when it is over `limit` bytes, told before anything is read;
    /// nil when it is not (or its size cannot be told: the read that follows will say why).
    public static func size(atPath path: String, over limit: Int) -> Int? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limit else { return nil }
        return size
    }

    /// The bytes of the file at `path` when it is a regular file of at most `limit` bytes; else
    /// thrown, saying why (not there, not a regular file — said for what it is —, too large).
    /// Opened without blocking and judged by `fstat` on the open file, so that a FIFO put in a
    /// file's place is never read and a file swapped after it was judged is not either; never
    /// more than `limit` + 1 bytes are read (a file growing meanwhile is refused).
    public static func read(atPath path: String, atMost limit: Int) throws(ResultReadError) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ResultReadError(
                path: path, message: errno == ENOENT ? "does not exist" : "cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ResultReadError(path: path, message: "cannot be read: fstat failed") }
        if let kind = FileKind.notRegular(status.st_mode) { throw ResultReadError(path: path, message: "is \(kind), not a regular file") }
        let tooLarge = { (size: Int) in
            ResultReadError(path: path, message: "is \(ByteCount.format(size)); it is read up to \(ByteCount.format(limit))")
        }
        guard Int(status.st_size) <= limit else { throw tooLarge(Int(status.st_size)) }
        var data = Data(count: Int(status.st_size) + 1)
        var count = 0
        while count < data.count {
            let read = data.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw ResultReadError(path: path, message: "cannot be read: \(String(cString: strerror(errno)))") }
            if read == 0 { break }
            count += read
            if count > limit { throw tooLarge(count) }
            if count == data.count { data.append(Data(count: min(64 << 10, limit + 1 - count))) }
        }
        data.count = count
        return data
    }
}
