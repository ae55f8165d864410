import ChatEvalCompare
import ChatEvalStore
import Foundation

/// What a bisection has measured, kept beside the result files so that an interrupted bisection
/// resumes without measuring a finished probe again: each probe by its commits and question,
/// each commit's single greedy run by its result file. Replaced atomically after every probe.
///
/// A journal belongs to one question: `fingerprint` digests the good and bad commits, the
/// suites and selection, the model and the settings; a journal of another is ignored.
public struct BisectJournal: Codable, Sendable {
    /// 2: `unmeasurable` added (a journal of version 1 is measured again: it only saves time).
    public static let currentVersion = 2

    /// A probe by the commits it compared.
    public struct Key: Hashable, Codable, Sendable {
        public var base: String
        public var head: String
        public var kind: BisectProbe.Kind
    }

    public struct Entry: Codable, Sendable {
        public var key: Key
        public var result: BisectProbeResult
    }

    public var version: Int
    public var fingerprint: String
    public var probes: [Entry]
    /// Commit → result file of its single greedy run (exact probes).
    public var singleRuns: [String: String]
    /// Commit → why it cannot be measured (its build failed; `BisectSkip.isLasting`): on resuming
    /// it is skipped again, not built again (`--fresh` tries it again). Never an end.
    public var unmeasurable: [String: String]

    public init(fingerprint: String) {
        version = Self.currentVersion
        self.fingerprint = fingerprint
        probes = []
        singleRuns = [:]
        unmeasurable = [:]
    }

    public func result(for key: Key) -> BisectProbeResult? { probes.last { $0.key == key }?.result }

    /// The journal at `url` when it answers the same question, else a new one (a journal that
    /// cannot be read is replaced: it only saves time).
    public static func open(_ url: URL, fingerprint: String) -> BisectJournal {
        read(url, fingerprint: fingerprint).journal
    }

    /// As `open`, with why a journal that answers the same question was not used: one that cannot
    /// be trusted (`problems`) is replaced, and the caller says so.
    public static func read(_ url: URL, fingerprint: String) -> (journal: BisectJournal, refused: String?) {
        // Bounded like a result file, and a regular file only (a FIFO in its place hung bisect):
        // the journal is read from a folder others may write to.
        guard FileContents.isRegularFile(atPath: url.path), FileContents.size(atPath: url.path, over: ResultFolder.maximumFileBytes) == nil,
            let data = FileContents.read(atPath: url.path),
            let journal = try? ResultWriter.makeDecoder().decode(BisectJournal.self, from: data),
            journal.version == currentVersion, journal.fingerprint == fingerprint
        else { return (BisectJournal(fingerprint: fingerprint), nil) }
        if let problem = journal.problems.first {
            return (
                BisectJournal(fingerprint: fingerprint),
                "the bisection's journal \(url.path) is not one this ChatEval can trust (\(problem)); "
                    + "its probes are measured again and the journal replaced"
            )
        }
        return (journal, nil)
    }

    /// Most repetitions per side a probe can have taken (`bisect --max-repeat`'s bound).
    public static let maximumRepetitions = 10_000

    /// What a journal read from disk holds that no bisection writes, each "field: why": a probe's
    /// repetitions outside 0 to `maximumRepetitions` (a count near `Int.max` overflowed the sum of
    /// a bisection's repetitions and trapped), a time or a change that is not a finite number.
    public var problems: [String] {
        var problems: [String] = []
        for (index, entry) in probes.enumerated() {
            let result = entry.result
            if !(0...Self.maximumRepetitions).contains(result.repetitions) {
                problems.append(
                    "probes[\(index)].result.repetitions: \(result.repetitions) is not 0 to \(Self.maximumRepetitions) repetitions")
            }
            if !result.seconds.isFinite || result.seconds < 0 {
                problems.append("probes[\(index)].result.seconds: \(result.seconds) is not a time (0 or more seconds)")
            }
            for reading in result.readings where [reading.change, reading.lower, reading.upper].contains(where: { $0?.isNaN == true }) {
                problems.append("probes[\(index)].result.readings: \(reading.signal) holds a change that is not a number")
            }
        }
        return problems
    }

    public func save(to url: URL) throws(ResultWriteError) {
        let data: Data
        do {
            data = try ResultWriter.makeEncoder(pretty: true).encode(self)
        } catch {
            throw ResultWriteError(path: url.path, reason: "cannot encode the bisection's journal: \(error)")
        }
        try AtomicFile.write(data, to: url)
    }
}
