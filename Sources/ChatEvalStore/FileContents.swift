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

    /// True when `path` names a regular file (links followed), told without opening it: a FIFO
    /// in a file's place would block a read for ever, and a device never ends.
    public static func isRegularFile(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The size of the file at `path` when it is over `limit` bytes, told before anything is read;
    /// nil when it is not (or its size cannot be told: the read that follows will say why).
    public static func size(atPath path: String, over limit: Int) -> Int? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > limit else { return nil }
        return size
    }
}
