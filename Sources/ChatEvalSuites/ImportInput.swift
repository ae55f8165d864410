import ChatEvalCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A data file a user holds, read by an importer in bounded pieces.
///
/// Contract: only a regular file is read (a FIFO would block and a device never ends; each is
/// refused for that reason, without blocking), a chunk of `chunkBytes` at a time, so that an
/// importer can stop at the line where its suite passes its limit. Whatever the file's size, the
/// memory held is a chunk, the record being read (at most `maximumRecordBytes`) and what the
/// importer keeps. Written on POSIX `open`/`fstat`/`read` rather than Foundation: FileHandle
/// cannot open without blocking on a FIFO, and `Data(contentsOf:)` reads the whole file first.
struct ImportInput: ~Copyable {
    static let chunkBytes = 1 << 20
    /// The longest line or record read: no suite holds more (`SuiteLoader.maximumFileBytes`).
    static var maximumRecordBytes: Int { SuiteLoader.maximumFileBytes }

    let path: String
    private let descriptor: Int32

    /// Opens `path` for reading; throws, naming the reason, unless it is a regular file.
    init(_ path: String) throws(SuiteErrors) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased()
            throw SuiteErrors([
                SuiteError(.unreadable, file: path, "cannot read the file: \(reason)", hint: "check the path and its permissions")
            ])
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw SuiteErrors([SuiteError(.unreadable, file: path, "cannot read the file: fstat failed")])
        }
        if let kind = FileKind.notRegular(status.st_mode) {
            close(descriptor)
            throw SuiteErrors([
                SuiteError(
                    .unreadable, file: path, "is \(kind), not a regular file: an importer reads a file whose end it can see",
                    hint: "save the data to a file first")
            ])
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// What `path` is when it is not a regular file (links followed), without opening it; nil for
    /// a regular file, or one that cannot be looked at (reading it then says why).
    static func notRegularFile(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileKind.notRegular(status.st_mode)
    }

    /// Hands each chunk of the file to `body`, in order, until the end or until `body` throws.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws(SuiteErrors) -> Void) throws(SuiteErrors) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkBytes, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, Self.chunkBytes)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw SuiteErrors([SuiteError(.unreadable, file: path, "cannot read the file: \(String(cString: strerror(errno)))")])
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Each line's text (without its `\n` or `\r\n`) and 1-based number, in order. A line longer
    /// than `maximumRecordBytes` or not UTF-8 is thrown at its number: nothing after it is read.
    func forEachLine(_ body: (Int, String) throws(SuiteErrors) -> Void) throws(SuiteErrors) {
        var line: [UInt8] = []
        var number = 1
        func finish() throws(SuiteErrors) {
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            try body(number, try text(line, line: number))
            line.removeAll(keepingCapacity: true)
            number += 1
        }
        try forEachChunk { (chunk: UnsafeRawBufferPointer) throws(SuiteErrors) in
            var start = chunk.startIndex
            while start < chunk.endIndex {
                let end = chunk[start...].firstIndex(of: UInt8(ascii: "\n")) ?? chunk.endIndex
                line.append(contentsOf: chunk[start..<end])
                guard line.count <= Self.maximumRecordBytes else { throw tooLong(line: number) }
                if end == chunk.endIndex { break }
                try finish()
                start = end + 1
            }
        }
        if !line.isEmpty { try finish() }
    }

    /// `bytes` as UTF-8 text; thrown at `line` when they are not.
    func text(_ bytes: [UInt8], line: Int) throws(SuiteErrors) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SuiteErrors([SuiteError(.notText, file: path, line: line, "the line is not UTF-8 text", hint: "save the file as UTF-8")])
        }
        return text
    }

    /// The error of a line or record past `maximumRecordBytes`.
    func tooLong(line: Int) -> SuiteErrors {
        SuiteErrors([
            SuiteError(
                .tooComplex, file: path, line: line,
                "the record starting here is longer than \(Self.maximumRecordBytes) bytes, more than a whole suite holds",
                hint: "split it, or leave it out of the file")
        ])
    }
}
