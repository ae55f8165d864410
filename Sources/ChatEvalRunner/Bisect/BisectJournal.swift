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

        public init(base: String, head: String, kind: BisectProbe.Kind) {
            self.base = base
            self.head = head
            self.kind = kind
        }
    }

    public struct Entry: Codable, Sendable {
        public var key: Key
        public var result: BisectProbeResult

        public init(key: Key, result: BisectProbeResult) {
            self.key = key
            self.result = result
        }
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
        let fresh = BisectJournal(fingerprint: fingerprint)
        // Bounded and a regular file only (a FIFO in its place hung bisect, 100 MB of garbage
        // took 38 s and a list of 200 MB of paths 638 MB): it is read from a folder others may
        // write to. Nothing at all there is a bisection's first run, said nothing about.
        guard FileManager.default.fileExists(atPath: url.path) else { return (fresh, nil) }
        let data: Data
        do {
            data = try FileContents.read(atPath: url.path, atMost: maximumFileBytes)
        } catch {
            return (
                fresh,
                "the bisection's journal \(error.description); its probes are measured again and the journal replaced"
            )
        }
        // What does not decode, or answers another question, is replaced as it is: a journal only saves time.
        guard let journal = try? ResultWriter.makeDecoder().decode(BisectJournal.self, from: data), journal.version == currentVersion,
            journal.fingerprint == fingerprint
        else { return (fresh, nil) }
        if let problem = journal.problems.first {
            return (
                fresh,
                "the bisection's journal \(url.path) is not one this ChatEval can trust (\(problem)); "
                    + "its probes are measured again and the journal replaced"
            )
        }
        return (journal, nil)
    }

    /// Largest journal read. A probe's entry takes a few KiB (its readings, two result paths), a
    /// commit's single run one path: 8 MiB is thousands of probes, more than any bisection
    /// takes (each signal's search is logarithmic in the range), and decodes in bounded memory.
    public static let maximumFileBytes = 8 << 20

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
