import ChatEvalTestKit
import Foundation
import Testing

/// A bisection's `--build` and `--serve` commands never outlive it (issue 43, item 2): run by the
/// real `chateval` on a scratch repository of two commits, a build that hangs and a server that
/// never answers each record their process group and a background child; chateval is then
/// stopped by SIGINT, SIGTERM or SIGKILL, and the processes still alive in that group (zombies
/// aside) are counted: none within a few seconds. No model is needed: nothing ever answers.
@Suite struct BisectChildrenTests {
    let cli = CommandLineTests()

    /// A repository of two commits (a suite, then a note) and a file the commands write their
    /// process group and their background child's pid to.
    final class Repository: ScratchRepository {
        let pids: URL

        init() async throws {
            pids = FileManager.default.temporaryDirectory.appendingPathComponent("bisect-pids-\(UUID().uuidString)")
            try super.init(prefix: "chateval-bisect-children")
            try await git("init", "-q", "-b", "main")
            try write(".gitignore", "reports/\n")
            try write("suites/facts.yaml", "name: facts\nconversations:\n  - {id: capital, turns: [\"Capital of France?\"]}\n")
            try await commit("1: the suite")
            try write("NOTES.md", "notes\n")
            try await commit("2: notes")
        }

        deinit {
            try? FileManager.default.removeItem(at: pids)
            try? FileManager.default.removeItem(atPath: pids.path + ".term")
        }

        /// Whether the command was ended by SIGTERM (its trap ran).
        var terminated: Bool { FileManager.default.fileExists(atPath: pids.path + ".term") }

        /// The recorded process group (the first line) and background child, once both are written.
        var recorded: (group: pid_t, child: pid_t)? {
            let lines = ((try? String(contentsOf: pids, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
            return lines.count >= 2 ? (lines[0], lines[1]) : nil
        }
    }

    /// A command that hangs: it writes its process group ($$, the group's first process) and the
    /// pid of a child it leaves in the background, then waits for ever. When SIGTERM ends it, it
    /// says so in `$PIDS.term` (a shell started with SIGTERM ignored cannot trap it: then only
    /// the SIGKILL after the grace would end it). Its output goes nowhere: once chateval is killed
    /// its log has no reader, and the shell's "Terminated" line would end it by SIGPIPE first.
    static let hanging =
        #"exec >/dev/null 2>&1; trap 'echo TERM >> "$PIDS.term"' TERM; echo $$ >> "$PIDS"; sleep 1000 & echo $! >> "$PIDS"; sleep 1000"#

    /// Waits up to `seconds` for the survivors to reach zero; returns those left and how long it took.
    static func survivorsAfterWaiting(_ recorded: (group: pid_t, child: pid_t), seconds: Double) async -> ([pid_t], Double) {
        let started = Date()
        while true {
            let left = ProcessTable.alive(inGroup: recorded.group, orAmong: [recorded.child])
            let took = Date().timeIntervalSince(started)
            if left.isEmpty || took > seconds { return (left, took) }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
    }

    /// Runs `bisect` with `arguments`, sends `signal` once the command's processes are recorded,
    /// and returns chateval's outcome and what it left running.
    func stop(_ arguments: [String], with signal: Int32) async throws -> (ProcessRunner.Outcome, (group: pid_t, child: pid_t)?, Repository)
    {
        let repository = try await Repository()
        let pids = repository.pids
        let outcome = try await ProcessRunner.run(
            CommandLineTests.binary, ["bisect", "HEAD~1", "HEAD"] + arguments, environment: ["CI": "true", "PIDS": pids.path],
            in: repository.root
        ) { running in
            for _ in 0..<600 {
                if let lines = try? String(contentsOf: pids, encoding: .utf8), lines.split(separator: "\n").count >= 2 { break }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            try await Task.sleep(nanoseconds: 300_000_000)
            running.send(signal)
        }
        return (outcome, repository.recorded, repository)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGKILL], ["build", "serve"])
    func noChildOutlivesBisect(_ signal: Int32, _ command: String) async throws {
        let arguments =
            command == "build" ? ["--build", Self.hanging, "--serve", "exec sleep 1000"] : ["--serve", Self.hanging]
        let (outcome, recorded, repository) = try await stop(arguments, with: signal)
        defer { withExtendedLifetime(repository) {} }
        let pids = try #require(recorded, "the \(command) command never started: \(outcome.stderr)")
        #expect(outcome.status == 128 + signal, "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("CancellationError"), "\(outcome.stderr)")
        // SIGINT and SIGTERM: chateval ends the group before it exits. SIGKILL: the group's watcher
        // sees the supervising pipe close and ends it (TERM, then KILL after its 5 s grace).
        let (left, took) = await Self.survivorsAfterWaiting(pids, seconds: signal == SIGKILL ? 15 : 3)
        #expect(left.isEmpty, "\(left.count) processes of the \(command) command survived SIGNAL \(signal): \(left)")
        #expect(repository.terminated, "ended by SIGTERM, not only by the SIGKILL after the grace")
        if signal != SIGKILL {
            #expect(outcome.stderr.contains("ending the build and servers it started"), "\(outcome.stderr)")
        }
        print("bisect \(command), signal \(signal): \(left.count) survivors after \(String(format: "%.1f", took)) s")
    }

    /// A build past --build-timeout and a server past --serve-ready-timeout: the commit is
    /// skipped with that reason (an end, here: refused by name), its group killed, never
    /// "CancellationError()".
    @Test(arguments: ["build", "serve"])
    func aTimeoutSkipsTheCommitWithItsReason(_ command: String) async throws {
        let repository = try await Repository()
        let arguments =
            command == "build"
            ? ["--build", Self.hanging, "--build-timeout", "2s", "--serve", "exec sleep 1000"]
            : ["--serve", Self.hanging, "--serve-ready-timeout", "2s"]
        let started = Date()
        let outcome = try await cli.run(
            ["bisect", "HEAD~1", "HEAD"] + arguments, environment: ["CI": "true", "PIDS": repository.pids.path], in: repository.root)
        let took = Date().timeIntervalSince(started)
        let reason =
            command == "build"
            ? "the build did not finish in 2s (--build-timeout); its process group was killed"
            : "the server did not become ready in 2s (--serve-ready-timeout); its process group was killed"
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("(the good end) cannot be measured: \(reason)"), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("CancellationError"), "\(outcome.stderr)")
        #expect(took < 60, "\(took) s")
        let pids = try #require(repository.recorded)
        let (left, _) = await Self.survivorsAfterWaiting(pids, seconds: 3)
        #expect(left.isEmpty, "\(left)")
        #expect(repository.terminated, "ended by SIGTERM, not only by the SIGKILL after the grace")
    }

    @Test func aTimeoutThatIsNoDurationIsAUsageError() async throws {
        let outcome = try await cli.run(
            ["bisect", "HEAD~1", "HEAD", "--serve", "x", "--build-timeout", "soon"], environment: ["CI": "true"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("--build-timeout soon: not a duration"), "\(outcome.stderr)")
        let unserved = try await cli.run(["bisect", "HEAD~1", "HEAD", "--serve-ready-timeout", "2m"], environment: ["CI": "true"])
        #expect(unserved.status == 2)
        #expect(unserved.stderr.contains("--serve-ready-timeout needs --serve"), "\(unserved.stderr)")
    }
}
