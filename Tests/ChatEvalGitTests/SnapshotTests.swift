import ChatEvalCore
import ChatEvalGit
import Foundation
import Testing

@Suite struct SnapshotTests {
    @Test func repositoryWithoutCommitsReportsUnbornBranchAndCounts() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try directory.write("draft", to: "notes.txt")
        let repository = try GitRepository.discover(startingAt: directory.url)

        let untracked = try repository.snapshot()
        #expect(untracked.isUnborn)
        #expect(untracked.branch == "main")
        #expect(!untracked.isDetached)
        #expect(untracked.commit == nil)
        #expect(untracked.shortCommit == nil)
        #expect(untracked.commitTime == nil)
        #expect(untracked.subject == nil)
        #expect(untracked.untrackedCount == 1)
        #expect(untracked.modifiedCount == 0)
        #expect(!untracked.isDirty)

        try await directory.git("add", "notes.txt")
        let staged = try repository.snapshot()
        #expect(staged.untrackedCount == 0)
        #expect(staged.modifiedCount == 1)
        #expect(staged.isDirty)
    }

    @Test(arguments: [("2024-05-06T07:08:09+05:30", 330), ("2023-12-31T23:59:59-07:00", -420)])
    func commitMatchesGit(date: String, offsetMinutes: Int) async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let commit = try await directory.commit(
            "README.md", "hello\n", message: "Add greeting\n\nA body that is not the subject.", date: date)

        let snapshot = try GitRepository.discover(startingAt: directory.url).snapshot()

        #expect(snapshot.commit == commit)
        #expect(snapshot.commit?.count == 40)
        #expect(snapshot.shortCommit == (try await directory.git("rev-parse", "--short", "HEAD")))
        #expect(snapshot.subject == "Add greeting")
        let committerTime = try #require(TimeInterval(try await directory.git("log", "-1", "--format=%ct")))
        #expect(snapshot.commitTime == Date(timeIntervalSince1970: committerTime))
        #expect(snapshot.commitTimeZoneOffsetMinutes == offsetMinutes)
        #expect(snapshot.branch == "main")
        #expect(!snapshot.isDetached)
        #expect(!snapshot.isUnborn)
        #expect(!snapshot.isDirty)
        #expect(snapshot.untrackedCount == 0)
        #expect(snapshot.describe == nil)
        #expect(!snapshot.isShallow)
        #expect(snapshot.workdir == directory.path)
    }

    @Test func snapshotSurvivesJSONRoundTrip() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try await directory.commit("a.txt", "a", message: "First")
        let snapshot = try GitRepository.discover(startingAt: directory.url).snapshot()

        let decoded = try JSONDecoder().decode(GitSnapshot.self, from: try JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
    }

    @Test func detachedHeadHasNoBranch() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        let first = try await directory.commit("a.txt", "1", message: "First")
        try await directory.commit("a.txt", "2", message: "Second")
        try await directory.git("checkout", "-q", "--detach", first)

        let snapshot = try GitRepository.discover(startingAt: directory.url).snapshot()

        #expect(snapshot.isDetached)
        #expect(snapshot.branch == nil)
        #expect(snapshot.commit == first)
        #expect(snapshot.subject == "First")
    }

    @Test func dirtyTreeCountsTrackedAndUntrackedSeparately() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try directory.write("*.log\n", to: ".gitignore")
        try await directory.git("add", ".gitignore")
        try await directory.commit("tracked.txt", "v1", message: "Tracked")
        try await directory.commit("staged.txt", "v1", message: "Staged")
        try await directory.commit("deleted.txt", "v1", message: "Deleted")

        try directory.write("v2", to: "tracked.txt")
        try directory.write("v2", to: "staged.txt")
        try await directory.git("add", "staged.txt")
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("deleted.txt"))
        try directory.write("new", to: "new1.txt")
        try directory.write("new", to: "new2.txt")
        try directory.write("ignored", to: "run.log")
        let untrackedFolder = try directory.subdirectory("results")
        try Data("x".utf8).write(to: untrackedFolder.appendingPathComponent("one.json"))
        try Data("y".utf8).write(to: untrackedFolder.appendingPathComponent("two.json"))

        let snapshot = try GitRepository.discover(startingAt: directory.url).snapshot()

        #expect(snapshot.modifiedCount == 3)
        #expect(snapshot.untrackedCount == 3)  // new1.txt, new2.txt, results/
        #expect(snapshot.isDirty)
        let porcelain = try await directory.git("status", "--porcelain").split(separator: "\n")
        #expect(snapshot.untrackedCount == porcelain.filter { $0.hasPrefix("??") }.count)
        #expect(snapshot.modifiedCount == porcelain.filter { !$0.hasPrefix("??") }.count)
    }

    @Test func untrackedFilesAloneDoNotMakeTheTreeDirty() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try await directory.commit("tracked.txt", "v1", message: "Tracked")
        try directory.write("new", to: "report.json")

        let snapshot = try GitRepository.discover(startingAt: directory.url).snapshot()

        #expect(snapshot.untrackedCount == 1)
        #expect(snapshot.modifiedCount == 0)
        #expect(!snapshot.isDirty)
    }

    @Test func describeUsesLightweightTags() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try await directory.commit("a.txt", "1", message: "First")
        try await directory.git("tag", "v1.0")
        let repository = try GitRepository.discover(startingAt: directory.url)

        #expect(try repository.snapshot().describe == "v1.0")

        try await directory.commit("a.txt", "2", message: "Second")
        let describe = try repository.snapshot().describe
        #expect(describe == (try await directory.git("describe", "--tags")))
        #expect(describe?.hasPrefix("v1.0-1-g") == true)
    }

    @Test func describeIsNilWhenNoTagReachesHead() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository()
        try await directory.commit("a.txt", "1", message: "First")
        try await directory.git("checkout", "-q", "-b", "side")
        try await directory.commit("b.txt", "1", message: "Side")
        try await directory.git("tag", "side-tag")
        try await directory.git("checkout", "-q", "main")
        try await directory.commit("a.txt", "2", message: "Second")

        #expect(try GitRepository.discover(startingAt: directory.url).snapshot().describe == nil)
        await #expect(throws: CommandFailed.self) { try await directory.git("describe", "--tags") }
    }

    @Test func shallowCloneIsReportedWithTheRightCommit() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository(in: "source")
        try await directory.commit("a.txt", "1", message: "First", in: "source")
        try await directory.git("tag", "v0.1", in: "source")
        try await directory.commit("a.txt", "2", message: "Second", in: "source")
        let head = try await directory.commit("a.txt", "3", message: "Third", in: "source")
        try await directory.git("clone", "-q", "--depth", "1", "file://\(directory.path)/source", "clone")

        let clone = try GitRepository.discover(startingAt: directory.url.appendingPathComponent("clone")).snapshot()
        let source = try GitRepository.discover(startingAt: directory.url.appendingPathComponent("source")).snapshot()

        #expect(clone.isShallow)
        #expect(!source.isShallow)
        #expect(clone.commit == head)
        #expect(clone.subject == "Third")
        #expect(clone.describe == nil)
        #expect(source.describe == "v0.1-2-g\(head.prefix(7))")
    }

    @Test func bareRepositoryHasNoWorkdirAndNoStatus() async throws {
        let directory = try TestDirectory()
        try await directory.initRepository(in: "source")
        let head = try await directory.commit("a.txt", "1", message: "First", in: "source")
        try await directory.git("clone", "-q", "--bare", "source", "bare.git")

        let repository = try GitRepository(path: directory.url.appendingPathComponent("bare.git"))
        let snapshot = try repository.snapshot()

        #expect(repository.workdir == nil)
        #expect(snapshot.workdir == nil)
        #expect(snapshot.commit == head)
        #expect(snapshot.branch == "main")
        #expect(snapshot.modifiedCount == 0)
        #expect(snapshot.untrackedCount == 0)
    }
}
