import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process's output (standard output and error, through a pipe) written to a log file,
/// bounded: a server logging every request or a build printing without end once filled the
/// reports folder. The first half of `bound` is written as it comes; after it, only the last
/// half is kept (in memory, written when the output ends), with a line saying how much was left
/// out between them — the start of a log says what ran, its end why it stopped.
final class BoundedLog: @unchecked Sendable {
    /// The most bytes a log holds (and the note between its two halves).
    static let bound = 1 << 20

    /// The pipe's end the child writes to (its standard output and error); closed here once spawned.
    let childEnd: Int32
    private let done = DispatchSemaphore(value: 0)

    /// Starts copying what the pipe receives into `url` (created, or emptied).
    init(_ url: URL, bound: Int = BoundedLog.bound) throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw ServedRevisionError(message: "cannot open a pipe for \(url.path): \(String(cString: strerror(errno)))")
        }
        // Neither end goes to other children; this one gets the write end as its output (dup2 clears the flag).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let file = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            close(ends[0])
            close(ends[1])
            throw ServedRevisionError(message: "cannot write the log \(url.path): \(String(cString: strerror(errno)))")
        }
        childEnd = ends[1]
        let reading = ends[0], done = self.done
        let thread = Thread {
            Self.copy(from: reading, to: file, bound: bound)
            close(reading)
            close(file)
            done.signal()
        }
        thread.name = "chateval-bisect-log"
        thread.start()
    }

    /// After the child is spawned: the child holds its own copies of the write end.
    func closeChildEnd() { close(childEnd) }

    /// Waits (up to `timeout` seconds) until every process holding the pipe closed it and the log
    /// is complete; false when it is not yet.
    /// Safe to call again (and from any thread): once complete, it answers true at once.
    @discardableResult
    func waitUntilComplete(timeout: Double) -> Bool {
        guard done.wait(timeout: .now() + timeout) == .success else { return false }
        done.signal()  // for the next caller
        return true
    }

    private static func copy(from pipe: Int32, to file: Int32, bound: Int) {
        let head = bound / 2
        var written = 0, dropped = 0
        var tail: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(pipe, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var bytes = buffer[..<count]
            if written < head {
                let now = bytes.prefix(head - written)
                writeAll(Array(now), to: file)
                written += now.count
                bytes = bytes.dropFirst(now.count)
            }
            guard !bytes.isEmpty else { continue }
            tail.append(contentsOf: bytes)
            if tail.count > 2 * (bound - head) {
                dropped += tail.count - (bound - head)
                tail.removeFirst(tail.count - (bound - head))
            }
        }
        if tail.count > bound - head {
            dropped += tail.count - (bound - head)
            tail.removeFirst(tail.count - (bound - head))
        }
        if dropped > 0 {
            writeAll(
                Array("\n[… \(dropped) bytes left out here: a log keeps its first and last \((bound - head) >> 10) KiB …]\n".utf8), to: file
            )
        }
        writeAll(tail, to: file)
    }

    private static func writeAll(_ bytes: [UInt8], to file: Int32) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            offset += count
        }
    }
}
