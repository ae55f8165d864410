import ChatEvalCompare
import Foundation
import Testing

@testable import ChatEvalRunner

/// A served bisection's scratch trees and logs under the reports folder: they were never removed
/// nor bounded — every probed commit's tree and build stayed, and a server's log grew with every
/// request (issue 47).
@Suite struct BisectScratchTests {
    private func make(_ url: URL, file: String = "x") throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try "content".write(to: url.appendingPathComponent(file), atomically: true, encoding: .utf8)
    }

    @Test func logsAreBoundedAndTreesGoWhenTheBisectionEnds() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bisect-trees-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        // A bisection killed outright left a tree and a log; an earlier version left a tree under the root itself.
        try make(root.appendingPathComponent("1111111..2222222/1111111"))
        try "log".write(to: root.appendingPathComponent("1111111..2222222/1111111.build.log"), atomically: true, encoding: .utf8)
        try make(root.appendingPathComponent("3333333"))

        let scratch = try BisectScratch(root: root, range: "aaaaaaa..bbbbbbb")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("3333333").path))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("1111111..2222222/1111111").path))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("1111111..2222222/1111111.build.log").path))
        #expect(throws: ServedRevisionError.self, "the same range twice at once") {
            try BisectScratch(root: root, range: "aaaaaaa..bbbbbbb")
        }

        // A build printing 3 MB and failing: its log keeps the first and last half megabyte.
        let revisions = ServedRevisions(
            commits: [(String(repeating: "a", count: 40), "aaaaaaa")], export: { _, folder in try make(folder) },
            build: "head -c 3000000 /dev/zero | tr '\\0' x; echo; echo the end; exit 3", serve: "sleep 60", scratch: scratch.folder,
            holding: scratch, readyTimeout: 1, connect: { _ in throw ServedRevisionError(message: "no server") })
        await #expect(throws: BisectSkip.self) { try await revisions.runtime(for: 0) }
        let log = try Data(contentsOf: scratch.folder.appendingPathComponent("aaaaaaa.build.log"))
        #expect(log.count <= BoundedLog.bound + 200, "\(log.count) bytes")
        let text = String(decoding: log, as: UTF8.self)
        #expect(text.contains("bytes left out here"))
        #expect(text.hasSuffix("the end\n"), "the log keeps its end: \(text.suffix(40))")
        #expect(FileManager.default.fileExists(atPath: scratch.folder.appendingPathComponent("aaaaaaa").path))

        await revisions.removeTrees()
        #expect(!FileManager.default.fileExists(atPath: scratch.folder.appendingPathComponent("aaaaaaa").path), "the tree is removed")
        #expect(FileManager.default.fileExists(atPath: scratch.folder.appendingPathComponent("aaaaaaa.build.log").path), "its log stays")
    }

    /// Only the newest folders of finished bisections are kept, for their logs.
    @Test func finishedBisectionsBeyondTheNewestFewAreRemoved() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bisect-trees-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<8 {
            let folder = root.appendingPathComponent("000000\(index)..111111\(index)")
            try make(folder, file: "c.serve.log")
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: Double(index - 10) * 3600)], ofItemAtPath: folder.path)
        }
        _ = try BisectScratch(root: root, range: "aaaaaaa..bbbbbbb")
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0 != "aaaaaaa..bbbbbbb" }.sorted()
        #expect(left == (3..<8).map { "000000\($0)..111111\($0)" })
    }
}
