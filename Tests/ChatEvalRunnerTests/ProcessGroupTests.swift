import ChatEvalTestKit
import Foundation
import Testing

@testable import ChatEvalRunner

/// A bisection's commands in their process groups (issue 43, item 2): how each ends, and that
/// nothing of a group is left once it is ended.
@Suite struct ProcessGroupTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("process-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The members of `group` once they number `count` or 2 s passed (a process killed takes a
    /// moment to become a zombie).
    static func members(of group: pid_t, settlingAt count: Int) async -> [pid_t] {
        for _ in 0..<20 {
            let members = ProcessTable.alive(inGroup: group)
            if members.count == count { return members }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        return ProcessTable.alive(inGroup: group)
    }

    @Test func aCommandThatExitsSaysItsStatusAndRunsInItsFolder() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let group = try ProcessGroup.start(
            "pwd > where; exit 3", in: folder, log: folder.appendingPathComponent("log"), environment: [:])
        #expect(await group.wait(timeout: 30) == .exited(3))
        group.end()
        let written = try String(contentsOf: folder.appendingPathComponent("where"), encoding: .utf8)
        #expect(written.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(folder.lastPathComponent))
    }

    /// A build that finishes but leaves a daemon behind, and one that hangs: ending the group
    /// ends everything in it, the watcher too, and a hanging command reads as ended by ChatEval.
    @Test(arguments: ["sleep 1000 & exit 0", "sleep 1000 & sleep 1000"])
    func endingAGroupLeavesNothingOfIt(_ command: String) async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let group = try ProcessGroup.start(command, in: folder, log: folder.appendingPathComponent("log"), environment: [:])
        let ending = await group.wait(timeout: 2)
        #expect(!ProcessTable.alive(inGroup: group.leader).isEmpty, "the watcher and the background sleep run")
        group.end()
        let left = await Self.members(of: group.leader, settlingAt: 0)
        #expect(left.isEmpty, "\(left)")
        if command.hasSuffix("exit 0") {
            #expect(ending == .exited(0))
        } else {
            #expect(ending == nil)
            #expect(group.ending() == .ended)
        }
    }

    /// The group's watcher ignores SIGTERM and holds no output: a TERM that ends the command's
    /// processes leaves it blocked on the supervising pipe until ChatEval ends the group.
    @Test func theWatcherOutlivesTermButNotTheEnd() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let group = try ProcessGroup.start("sleep 1000", in: folder, log: folder.appendingPathComponent("log"), environment: [:])
        try await Task.sleep(nanoseconds: 300_000_000)
        kill(-group.leader, SIGTERM)
        #expect(await group.wait(timeout: 10) == .exited(128 + SIGTERM))
        #expect(await Self.members(of: group.leader, settlingAt: 1).count == 1, "the watcher alone")
        group.end()
        #expect(await Self.members(of: group.leader, settlingAt: 0).isEmpty)
    }
}
