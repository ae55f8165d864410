#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a path is when it is not a regular file, in words, for a refusal that names the reason
/// ("is a FIFO (named pipe), not a regular file") instead of a read that blocks or never ends.
public enum FileKind {
    /// "a FIFO (named pipe)", "a character device", ...; nil for a regular file.
    public static func notRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }
}
