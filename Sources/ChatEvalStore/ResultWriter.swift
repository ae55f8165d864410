import ChatEvalCore
import Foundation
import Synchronization

/// Writes a run's result file so that nothing measured is lost.
///
/// - The journal (`<name>.journal`, JSON Lines) starts with a header — the run's record without
///   its suites, and the text of every suite it replays — and then gets one line per finished
///   turn, each synced to disk before the run goes on. A killed process leaves a journal that
///   `chateval recover` turns into a graded result file.
/// - A line is written whole or not at all: a write that fails (a full disk) is cut back to
///   where the line began, so the journal stays a sequence of whole lines.
/// - While the run lives it holds an exclusive lock on its journal (`flock`): a journal nobody
///   holds is left over from a run that died, and only such a journal is recovered.
/// - The result file (`<name>.json`) is replaced atomically (written to a temporary file, then
///   renamed): a reader sees the old version or the new one, never half of one.
/// - Names are unique per run (`<UTC time>-<short commit>-<run id>`), so concurrent runs in the
///   same folder never touch each other's files, and a folder listing sorts runs in time.
///
/// Safe to call from any task: every write holds the writer's lock (hence `@unchecked Sendable`).
public final class ResultWriter: @unchecked Sendable {
    public let resultURL: URL
    public let journalURL: URL
    private let descriptor: Int32
    private let encoder: JSONEncoder
    private let lineEncoder: JSONEncoder
    private let lock = Mutex(false)  // true once finished

    /// Creates the folder if needed, creates and locks the journal and writes its header.
    public init(folder: URL, record: RunRecord, suites: [SuiteSource]) throws(ResultWriteError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ResultWriteError(path: folder.path, reason: "cannot create the folder (\(error.localizedDescription))")
        }
        let name = Self.fileName(for: record)
        resultURL = folder.appendingPathComponent(name + ".json")
        journalURL = folder.appendingPathComponent(name + ".journal")
        descriptor = open(journalURL.path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ResultWriteError(path: journalURL.path, reason: AtomicFile.lastError()) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw ResultWriteError(path: journalURL.path, reason: "cannot lock the journal (\(AtomicFile.lastError()))")
        }
        encoder = Self.makeEncoder(pretty: true)
        lineEncoder = Self.makeEncoder(pretty: false)
        var header = record
        header.suites = []
        try appendLine(JournalHeader(record: header, suites: suites))
    }

    deinit { close(descriptor) }

    /// Appends one finished turn to the journal and syncs it to disk.
    public func journal(_ entry: JournalEntry) throws(ResultWriteError) {
        try appendLine(entry)
    }

    /// Replaces the result file with `record`, atomically.
    public func write(_ record: RunRecord) throws(ResultWriteError) {
        let data: Data
        do {
            // Secrets (an API key a server echoed into an error) never reach the disk.
            data = Secrets.redact(try encoder.encode(record))
        } catch {
            throw ResultWriteError(path: resultURL.path, reason: "cannot encode the record (\(error))")
        }
        try lock.withLock { _ throws(ResultWriteError) in try AtomicFile.write(data, to: resultURL) }
    }

    /// Removes the journal once the final result file holds everything it held.
    public func finish() {
        lock.withLock { finished in
            guard !finished else { return }
            finished = true
            unlink(journalURL.path)
        }
    }

    /// Writes `value` and a line break at the end of the journal, all of it or none of it.
    private func appendLine(_ value: some Encodable) throws(ResultWriteError) {
        var line: Data
        do {
            line = Secrets.redact(try lineEncoder.encode(value))
        } catch {
            throw ResultWriteError(path: journalURL.path, reason: "cannot encode a journal line (\(error))")
        }
        line.append(0x0A)
        try lock.withLock { _ throws(ResultWriteError) in
            let start = lseek(descriptor, 0, SEEK_END)
            let failure = AtomicFile.writeAll(line, to: descriptor)
            if let failure {
                // Cut the partial line back off, so the journal stays a sequence of whole lines.
                if start >= 0 { _ = ftruncate(descriptor, start) }
                throw ResultWriteError(path: journalURL.path, reason: failure)
            }
        }
    }

    public static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = UTCTimestamp.jsonEncoding
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = UTCTimestamp.jsonDecoding
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// `20261122T210412Z-03797f5-k3j9x2` (or `nogit` outside a repository). Only hex digits of
    /// the commit and letters, digits, `-` and `_` of the run id are used, whatever the record
    /// holds: a name built from a short commit `x/../../..` stays in its folder.
    public static func fileName(for record: RunRecord) -> String {
        let commit = String((record.git?.shortCommit ?? "").filter { $0.isASCII && $0.isHexDigit }.prefix(64))
        let runId = String(record.runId.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.prefix(64))
        return "\(UTCTimestamp.compact(record.startedAt))-\(commit.isEmpty ? "nogit" : commit)-\(runId)"
    }

    /// A short random run id (lowercase letters and digits).
    public static func newRunId() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<8).map { _ in alphabet.randomElement() ?? "x" })
    }
}

extension RunRecord {
    /// This record as its result file gives it back: times at the microsecond resolution they are
    /// written at (with the rates and latency percentiles that follow from them), dates to the
    /// second. `run` renders its reports from it, so that `chateval report` of the result file
    /// gives the same reports, byte for byte. The record itself should it not survive the trip
    /// (a record that was written always does).
    public var asWritten: RunRecord {
        guard let data = try? ResultWriter.makeEncoder(pretty: false).encode(self),
            let read = try? ResultWriter.makeDecoder().decode(RunRecord.self, from: data)
        else { return self }
        return read
    }
}
