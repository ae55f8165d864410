import ChatEvalCompare
import ChatEvalCore
import ChatEvalRunner
import ChatEvalStore
import Foundation
import Synchronization

/// Seeds of the importers' formats and of a bisection's journal, and what their targets need.
extension FuzzInputs {
    /// The importers' test fixtures (real files' shapes: Multi-IF's CSV with JSON inside quoted
    /// fields, IFBench's JSON Lines; each also with instructions ChatEval does not check), found
    /// from the current folder or the package root: the files whose names start with `prefix`.
    static func importFixtures(_ prefix: String) -> [Data] {
        let relative = "Tests/ChatEvalSuitesTests/Fixtures/multi-turn-import"
        let folder =
            [relative, URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../" + relative).path]
            .first { FileManager.default.fileExists(atPath: $0) } ?? relative
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }.sorted()
        return names.compactMap { FileContents.read(atPath: folder + "/" + $0) }
    }

    /// The bisection the journal target resumes: six commits.
    static let bisectStates = (0..<6).map { index in
        BisectState(
            commit: String(repeating: String(index), count: 40), shortId: String(repeating: String(index), count: 7),
            subject: "commit \(index)")
    }
    static let bisectFingerprint = "fuzz"

    /// The journal a bisection of `bisectStates` writes when commit 3 changes the smoke suite's
    /// ledger (an exact probe's reading, its detail holding an escape sequence as an edited
    /// journal's may): every probe it took, the single runs' files, a commit whose build failed.
    static var bisectJournalFile: Data {
        let taken = Taken()
        let states = bisectStates
        _ = blocking {
            try? await Bisector(states: states).run(
                ScriptedProber { probe in
                    let changed = probe.base < 3 && probe.head >= 3
                    let reading = SignalReading(
                        signal: .ledger(suite: "smoke"), side: changed ? .changed : .same, change: changed ? 1 : 0,
                        detail: changed ? "turn 1 \u{1B}[2Jdiffers" : "same ledger")
                    let result = BisectProbeResult(
                        readings: probe.kind == .exact ? [reading] : [], repetitions: probe.kind == .exact ? 1 : 3, seconds: 0.5,
                        results: ["/reports/\(probe.base).json", "/reports/\(probe.head).json"])
                    let key = BisectJournal.Key(base: states[probe.base].commit, head: states[probe.head].commit, kind: probe.kind)
                    taken.entries.withLock { $0.append(BisectJournal.Entry(key: key, result: result)) }
                    return result
                })
        }
        var journal = BisectJournal(fingerprint: bisectFingerprint)
        journal.probes = taken.entries.withLock { $0 }
        journal.singleRuns = Dictionary(uniqueKeysWithValues: states.map { ($0.commit, "/reports/\($0.shortId).json") })
        journal.unmeasurable = [states[4].commit: "the build failed (exit 1; /reports/4444444.build.log)"]
        return (try? ResultWriter.makeEncoder(pretty: true).encode(journal)) ?? Data()
    }

    /// `body`'s value, waited for on this (non-concurrency) thread: the fuzz targets are synchronous.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private final class Taken: Sendable {
        let entries = Mutex<[BisectJournal.Entry]>([])
    }

    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }
}

/// Answers each probe with `answer` (the seed journal's bisection).
struct ScriptedProber: BisectProber {
    let answer: @Sendable (BisectProbe) -> BisectProbeResult

    func probe(_ probe: BisectProbe) async throws -> BisectProbeResult { answer(probe) }
}
