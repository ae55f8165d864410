import ChatEvalTestKit
import Foundation
import Testing

/// The real `chateval bisect` reading a journal planted in its place (issue 43, item 3): 100 MB
/// of garbage, 200 MB of result paths, and 8 MiB of them (just under the bound, read whole). Its
/// peak memory stays within 100 MB and it answers within seconds. With `--serve` and a server
/// that never answers, nothing is measured and no model is needed: the journal is read, then the
/// good end is refused after the 1 s readiness bound.
@Suite(.serialized) struct BisectJournalFloodTests {
    enum Journal: String, CaseIterable, Sendable {
        case garbage, pathsOver, pathsUnder
    }

    @Test(arguments: Journal.allCases)
    func aPlantedJournalIsReadInBoundedMemoryAndTime(_ kind: Journal) async throws {
        let repository = try await BisectChildrenTests.Repository()
        let folder = repository.root.appendingPathComponent("reports/.chateval")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let good = try await repository.git("rev-parse", "--short", "HEAD~1")
        let bad = try await repository.git("rev-parse", "--short", "HEAD")
        let journal = folder.appendingPathComponent("bisect-\(good)-\(bad).json")
        switch kind {
        case .garbage:
            var generator = SystemRandomNumberGenerator()
            let block = Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            _ = FileManager.default.createFile(atPath: journal.path, contents: nil)
            let handle = try FileHandle(forWritingTo: journal)
            for _ in 0..<100 { handle.write(block) }
            try handle.close()
        case .pathsOver: try BisectJournalFlood.write(paths: 750_000, to: journal)
        case .pathsUnder: try BisectJournalFlood.write(paths: 30_000, to: journal)
        }
        let watch = try await ChildWatch.run(
            CommandLineTests.binary,
            ["bisect", "HEAD~1", "HEAD", "--serve", "exec sleep 1000", "--serve-ready-timeout", "1s"], environment: ["CI": "true"],
            in: repository.root, killAbove: 100 << 20, after: 60)
        #expect(!watch.killed, "\(watch.peakBytes >> 20) MB after \(watch.seconds) s")
        #expect(watch.outcome.status == 2, "\(watch.outcome.stderr)")
        #expect(watch.outcome.stderr.contains("the server did not become ready in 1s"), "\(watch.outcome.stderr)")
        if kind != .pathsUnder {
            #expect(watch.outcome.stderr.contains("it is read up to 8.0 MiB"), "\(watch.outcome.stderr)")
        }
        #expect(watch.peakBytes <= 100 << 20, "\(watch.peakBytes >> 20) MB")
        print(
            "bisect with a planted journal (\(kind)): peak \(watch.peakBytes >> 20) MB, \(String(format: "%.2f", watch.seconds)) s "
                + "(1 s of it the readiness bound)")
    }
}
