import ChatEvalCore
import Foundation
import Synchronization

/// Writes a run's result file so that nothing measured is lost.
///
/// - Every finished turn is appended to a journal (`<name>.journal`, JSON Lines) and flushed to
///   disk before the run goes on, so even a killed process leaves every finished turn behind.
/// - The result file (`<name>.json`) is replaced atomically (written to a temporary file, then
///   renamed): a reader sees the old version or the new one, never half of one.
/// - Names are unique per run (`<UTC time>-<short commit>-<run id>`), so concurrent runs in the
///   same folder never touch each other's files, and a folder listing sorts runs in time.
///
/// Safe to call from any task: every write holds the writer's lock (hence `@unchecked Sendable`).
public final class ResultWriter: @unchecked Sendable {
    public let resultURL: URL
    public let journalURL: URL
    private let journal: FileHandle
    private let encoder: JSONEncoder
    private let lineEncoder: JSONEncoder
    private let lock = Mutex(())

    /// Creates the folder if needed and opens the journal.
    public init(folder: URL, record: RunRecord) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = Self.fileName(for: record)
        resultURL = folder.appendingPathComponent(name + ".json")
        journalURL = folder.appendingPathComponent(name + ".journal")
        guard FileManager.default.createFile(atPath: journalURL.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: journalURL.path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: journalURL.path])
        }
        journal = handle
        encoder = Self.makeEncoder(pretty: true)
        lineEncoder = Self.makeEncoder(pretty: false)
    }

    deinit { try? journal.close() }

    /// Appends one finished turn to the journal and syncs it to disk.
    public func journal(_ entry: JournalEntry) throws {
        try lock.withLock { _ in
            var line = try lineEncoder.encode(entry)
            line.append(0x0A)
            try journal.write(contentsOf: line)
            try journal.synchronize()
        }
    }

    /// Replaces the result file with `record`, atomically.
    public func write(_ record: RunRecord) throws {
        try lock.withLock { _ in try encoder.encode(record).write(to: resultURL, options: .atomic) }
    }

    /// Removes the journal once the final result file holds everything it held.
    public func finish() {
        lock.withLock { _ in
            try? journal.close()
            try? FileManager.default.removeItem(at: journalURL)
        }
    }

    public static func makeEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// `20261122T210412Z-03797f5-k3j9x2` (or `nogit` outside a repository).
    static func fileName(for record: RunRecord) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let commit = record.git?.shortCommit ?? "nogit"
        return "\(formatter.string(from: record.startedAt))-\(commit)-\(record.runId)"
    }

    /// A short random run id (lowercase letters and digits).
    public static func newRunId() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<8).map { _ in alphabet.randomElement() ?? "x" })
    }
}

/// One line of a run's journal: a finished turn and where it belongs.
public struct JournalEntry: Codable, Sendable {
    public var suite: String
    public var conversation: String
    public var repetition: Int
    public var warmup: Bool
    public var turn: ReplayedTurn

    public init(suite: String, conversation: String, repetition: Int, warmup: Bool, turn: ReplayedTurn) {
        self.suite = suite
        self.conversation = conversation
        self.repetition = repetition
        self.warmup = warmup
        self.turn = turn
    }
}
