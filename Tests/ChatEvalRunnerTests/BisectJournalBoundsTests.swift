import ChatEvalCompare
import ChatEvalStore
import ChatEvalTestKit
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
        #expect(journal.probes.isEmpty)
        #expect(refused?.contains("is a FIFO (named pipe), not a regular file") == true, "\(refused ?? "")")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    /// `megabytes` MB at a new temporary path: `block` repeated.
    private func file(megabytes: Int, block: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bisect-flood-\(UUID().uuidString).json")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var written = 0
        while written < megabytes * 1_000_000 {
            handle.write(block)
            written += block.count
        }
        return url
    }

    /// 100 MB of garbage cost 38 s to refuse (issue 43, item 3): refused now by its size, unread.
    @Test func aHundredMegabytesOfGarbageAreRefusedAtOnce() throws {
        var generator = SystemRandomNumberGenerator()
        let url = try file(megabytes: 100, block: Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }))
        defer { try? FileManager.default.removeItem(at: url) }
        let started = Date()
        let (journal, refused) = BisectJournal.read(url, fingerprint: "question")
        let took = Date().timeIntervalSince(started)
        #expect(journal.probes.isEmpty)
        #expect(refused?.contains("it is read up to 8.0 MiB") == true, "\(refused ?? "")")
        #expect(took < 2, "\(took) s")
    }

    /// A journal listing 200 MB of result paths took 638 MB to read: now refused by its size,
    /// unread. One just under the bound (8 MiB) is read whole, and used.
    @Test(arguments: [750_000, 30_000])
    func aJournalListingResultPathsIsReadWithinItsBound(_ paths: Int) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bisect-paths-\(UUID().uuidString).json")
        try BisectJournalFlood.write(paths: paths, to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let size = try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let (journal, refused) = BisectJournal.read(url, fingerprint: "question")
        if size > BisectJournal.maximumFileBytes {
            #expect(size > 200_000_000, "\(size) bytes")
            #expect(journal.singleRuns.isEmpty)
            #expect(refused?.contains("it is read up to 8.0 MiB") == true, "\(refused ?? "")")
        } else {
            #expect(size > BisectJournal.maximumFileBytes - (1 << 20), "\(size) bytes: just under the bound")
            #expect(refused == nil, "\(refused ?? "")")
            #expect(journal.singleRuns.count == paths)
        }
    }
}
