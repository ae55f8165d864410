import ChatEvalCore
import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalIndex

/// The results index follows the result files and git notes: new, changed and removed sources,
/// rebuilt from scratch on request or when damaged.
@Suite struct ResultIndexTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chateval-index-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        var index: URL { SQLiteResultIndex.defaultURL(reports: url) }

        @discardableResult
        func write(_ record: RunRecord, name: String? = nil) throws -> URL {
            let file = url.appendingPathComponent(name ?? "20260101T000000Z-\(record.git?.shortCommit ?? "nogit")-\(record.runId).json")
            try ResultWriter.makeEncoder(pretty: true).encode(record).write(to: file)
            return file
        }
    }

    @Test func newChangedAndRemovedFilesAreFollowed() throws {
        let folder = try Folder()
        var runs = SyntheticRuns(seed: 1)
        let first = runs.record(runId: "run00001", commit: SyntheticRuns.commitID(1), ttft: 0.2)
        let second = runs.record(runId: "run00002", commit: SyntheticRuns.commitID(2), suites: ["smoke", "math"], ttft: 0.3)
        let firstFile = try folder.write(first)
        try folder.write(second)
        try Data("not json".utf8).write(to: folder.url.appendingPathComponent("broken.json"))

        let index = try SQLiteResultIndex(url: folder.index)
        let update = try index.update(folder: folder.url)
        #expect(update.read == 3)
        #expect(update.unreadable.count == 1 && update.unreadable[0].contains("broken.json"))
        #expect(try index.update(folder: folder.url) == IndexUpdate(), "nothing changed: nothing read")

        let found = try index.runs(commits: [SyntheticRuns.commitID(1), SyntheticRuns.commitID(2)], metrics: [.timeToFirstToken])
        #expect(found.map(\.runId) == ["run00001", "run00002"])
        #expect(found[1].suites.map(\.name) == ["smoke", "math"])
        #expect(
            found[0].suites[0].samples[.timeToFirstToken]
                == SuiteDigest(try ResultFolder.read(firstFile).suites[0]).samples[.timeToFirstToken])
        #expect(found[0].suites[0].samples[.decodeTokensPerSecond] == nil, "only the metrics asked for")
        #expect(found[0].suites[0].checksTotal == 8 && found[0].machine == SyntheticRuns.machine.performanceClass)

        var changed = first
        changed.runId = "run00003"
        try ResultWriter.makeEncoder(pretty: false).encode(changed).write(to: firstFile)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("broken.json"))
        let again = try index.update(folder: folder.url)
        #expect(again.read == 1 && again.removed == 1)
        #expect(try index.runs(commits: [SyntheticRuns.commitID(1)], metrics: []).map(\.runId) == ["run00003"])
    }

    @Test func notesAreReadWhenTheirBlobChangesAndARunInAFileAndANoteComesBackOnce() throws {
        let folder = try Folder()
        var runs = SyntheticRuns(seed: 2)
        let commit = SyntheticRuns.commitID(7)
        let inBoth = runs.record(runId: "both0001", commit: commit)
        let noteOnly = runs.record(runId: "note0001", commit: commit)
        try folder.write(inBoth)
        let note = try RunNote.line(for: inBoth) + "\n" + RunNote.line(for: noteOnly) + "\nnot a run\n"
        var reads: [String] = []
        let index = try SQLiteResultIndex(url: folder.index)
        _ = try index.update(folder: folder.url)
        let listing = (tip: "tip1", notes: [commit: "blob1"])
        let update = try index.update(notesTip: listing.tip, notes: listing.notes) { blob in
            reads.append(blob)
            return note
        }
        #expect(update.read == 1 && update.unreadable == ["notes:\(commit): line 3: not a ChatEval run of this version (not JSON)"])
        let found = try index.runs(commits: [commit], metrics: [.timeToFirstToken])
        #expect(Set(found.map(\.runId)) == ["both0001", "note0001"])
        #expect(found.first { $0.runId == "both0001" }?.source.hasSuffix(".json") == true)

        _ = try index.update(notesTip: listing.tip, notes: listing.notes) { _ in
            Issue.record("an unmoved notes ref is not read again")
            return ""
        }
        _ = try index.update(notesTip: "tip2", notes: [commit: "blob1"]) { _ in
            Issue.record("an unchanged note is not read again")
            return ""
        }
        #expect(reads == ["blob1"])
        let removed = try index.update(notesTip: nil, notes: [:]) { _ in "" }
        #expect(removed.removed == 1)
        #expect(try index.runs(commits: [commit], metrics: []).map(\.runId) == ["both0001"])
    }

    @Test func rebuildStartsEmptyAndADamagedFileIsRebuilt() throws {
        let folder = try Folder()
        var runs = SyntheticRuns(seed: 3)
        try folder.write(runs.record(runId: "run00001", commit: SyntheticRuns.commitID(1)))
        do {
            let index = try SQLiteResultIndex(url: folder.index)
            #expect(try index.update(folder: folder.url).read == 1)
        }
        let rebuilt = try SQLiteResultIndex(url: folder.index, rebuild: true)
        #expect(rebuilt.wasRebuilt)
        #expect(try rebuilt.runs(commits: [SyntheticRuns.commitID(1)], metrics: []).isEmpty)
        #expect(try rebuilt.update(folder: folder.url).read == 1)

        try Data(repeating: 0x41, count: 4096).write(to: folder.index)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.index.path + suffix) }
        let recovered = try SQLiteResultIndex(url: folder.index)
        #expect(recovered.wasRebuilt)
        #expect(try recovered.update(folder: folder.url).read == 1)
        let ignore = try String(contentsOf: folder.index.deletingLastPathComponent().appendingPathComponent(".gitignore"), encoding: .utf8)
        #expect(ignore.hasSuffix("*\n"))
    }

    @Test func packedSamplesRoundTrip() {
        let values = [0, -1.5, .pi, 1e-300, Double.greatestFiniteMagnitude]
        #expect(SQLiteResultIndex.unpack(SQLiteResultIndex.pack(values)) == values)
    }
}
