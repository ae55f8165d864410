import ChatEvalCompare
import Foundation
import Testing

@testable import ChatEvalRunner

/// A bisection's journal is read from a folder others may write to: what no bisection writes is
/// refused before anything sums or prints it (issue 47).
@Suite struct BisectJournalBoundsTests {
    private func journal(repetitions: Int, seconds: Double = 12) throws -> URL {
        var journal = BisectJournal(fingerprint: "question")
        journal.probes = [
            BisectJournal.Entry(
                key: BisectJournal.Key(base: "a", head: "b", kind: .exact),
                result: BisectProbeResult(readings: [], repetitions: repetitions, seconds: seconds)),
            BisectJournal.Entry(
                key: BisectJournal.Key(base: "b", head: "c", kind: .exact),
                result: BisectProbeResult(readings: [], repetitions: 3, seconds: 1)),
        ]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bisect-journal-\(UUID().uuidString).json")
        try journal.save(to: url)
        return url
    }

    /// A repetition count of `Int.max` was resumed as measured, and summing the bisection's
    /// repetitions (`BisectOutcome.measured`) trapped: exit 132.
    @Test(arguments: [Int.max, -1, 10_001])
    func aRepetitionCountNoBisectionTakesIsRefused(_ repetitions: Int) throws {
        let url = try journal(repetitions: repetitions)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(BisectJournal.open(url, fingerprint: "question").probes.isEmpty, "measured again, not resumed")
        let (journal, refused) = BisectJournal.read(url, fingerprint: "question")
        #expect(journal.probes.isEmpty)
        #expect(refused?.contains("probes[0].result.repetitions: \(repetitions) is not 0 to 10000 repetitions") == true, "\(refused ?? "")")
        #expect(refused?.contains(url.path) == true)
    }

    @Test(arguments: [Double.infinity, -1, .nan])
    func aTimeThatIsNoTimeIsRefused(_ seconds: Double) throws {
        let url = try journal(repetitions: 3, seconds: seconds)
        defer { try? FileManager.default.removeItem(at: url) }
        let (journal, refused) = BisectJournal.read(url, fingerprint: "question")
        #expect(journal.probes.isEmpty)
        #expect(refused?.contains("probes[0].result.seconds") == true, "\(refused ?? "")")
    }

    /// What a bisection writes is read back whole, unrefused.
    @Test func aJournalABisectionWroteIsResumed() throws {
        let url = try journal(repetitions: 10_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let (journal, refused) = BisectJournal.read(url, fingerprint: "question")
        #expect(refused == nil)
        #expect(journal.probes.map(\.result.repetitions) == [10_000, 3])
    }

    /// A FIFO in the journal's place (nobody writing) is passed over at once, a fresh journal
    /// started: before, reading it hung bisect until it was killed (issue 43, item 3).
    @Test func aFIFOInTheJournalsPlaceIsNotRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bisect-fifo-\(UUID().uuidString).json").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let started = Date()
        let (journal, refused) = BisectJournal.read(URL(fileURLWithPath: path), fingerprint: "question")
        #expect(journal.probes.isEmpty && refused == nil)
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
