import ChatEvalCore
import Foundation

/// A journal as read back: its header, its whole entries, and whether its last line was cut.
public struct Journal: Sendable {
    public var header: JournalHeader
    public var entries: [JournalEntry]
    /// Lines after the header that could not be read (a line cut by a crash mid-write), 1-based.
    public var unreadableLines: [Int]
    /// Lines that were read but hold a turn that cannot exist, each "line N: field: what is wrong"
    /// (see `JournalEntry.validationProblems`); left out like unreadable ones.
    public var refusedLines: [String]

    public init(header: JournalHeader, entries: [JournalEntry], unreadableLines: [Int] = [], refusedLines: [String] = []) {
        self.header = header
        self.entries = entries
        self.unreadableLines = unreadableLines
        self.refusedLines = refusedLines
    }

    /// Largest journal read: a journal holds no more than the result file it becomes.
    public static let maximumFileBytes = ResultFolder.maximumFileBytes

    /// Reads a journal. Throws when the file is over `maximumFileBytes` (told by its size,
    /// unread), cannot be read or has no header (written by an older version, or not a journal).
    public static func read(_ url: URL) throws(ResultReadError) -> Journal {
        if let size = FileContents.size(atPath: url.path, over: maximumFileBytes) {
            throw ResultReadError(
                path: url.path,
                message: "is \(ByteCount.format(size)); journals are read up to \(ByteCount.format(maximumFileBytes)), "
                    + "so nothing was recovered from it (a run writes no journal that large)")
        }
        guard let data = FileContents.read(atPath: url.path) else {
            throw ResultReadError(path: url.path, message: "cannot be read")
        }
        let decoder = ResultWriter.makeDecoder()
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard let first = lines.first, var header = try? decoder.decode(JournalHeader.self, from: Data(first)) else {
            throw ResultReadError(
                path: url.path,
                message: "has no journal header (a journal of an older ChatEval, or not a journal); nothing can be recovered from it")
        }
        header.record.clampContradictions()
        if let problem = header.record.validationProblems.first {
            throw ResultReadError(path: url.path, message: "its header is not a run this ChatEval can trust: \(problem)")
        }
        var journal = Journal(header: header, entries: [])
        for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty {
            guard var entry = try? decoder.decode(JournalEntry.self, from: Data(line)) else {
                journal.unreadableLines.append(index + 1)
                continue
            }
            entry.clampContradictions()
            // A turn that cannot exist is left out as a cut line is, and named.
            if let problem = entry.validationProblems.first {
                journal.refusedLines.append("line \(index + 1): \(problem)")
            } else {
                journal.entries.append(entry)
            }
        }
        return journal
    }

    /// Journals directly in `folder` that no live run holds (their run died), oldest first.
    public static func abandoned(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".journal") }.sorted().map { folder.appendingPathComponent($0) }.filter(isAbandoned)
    }

    /// True when no process holds the journal's lock.
    public static func isAbandoned(_ url: URL) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(descriptor, LOCK_UN)
        return true
    }
}
