import ChatEvalCore
import ChatEvalStore
import Foundation

/// A git repository with a generated first-parent history and result files for its commits: what
/// `chateval history` reads, at any size, without a model (tests and `chateval-bench history`).
public enum SyntheticHistory {
    /// Creates the repository in `folder` (which must exist and be empty) with `commits` commits
    /// made by one `git fast-import`, and writes `runsPerCommit` result files per commit into
    /// `folder/reports`, TTFT multiplied by `stepFactor` from commit `stepAt` (0-based) on.
    /// `suites/smoke.yaml` is added at the first commit and changed at `suiteChangeAt`; the other
    /// commits change only `file.txt`. Returns the commit ids, oldest first.
    @discardableResult
    public static func make(
        in folder: URL, commits: Int, runsPerCommit: Int = 1, stepAt: Int? = nil, stepFactor: Double = 1.2, seed: UInt64 = 1,
        suiteChangeAt: Int? = nil,
        suites: [String] = ["smoke"], conversations: Int = 2, turns: Int = 4
    ) async throws -> [String] {
        let environment = [
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
            "GIT_AUTHOR_NAME": "Synthetic", "GIT_AUTHOR_EMAIL": "synthetic@example.com",
            "GIT_COMMITTER_NAME": "Synthetic", "GIT_COMMITTER_EMAIL": "synthetic@example.com",
        ]
        let git = URL(fileURLWithPath: "/usr/bin/env")
        func run(_ arguments: [String]) async throws -> String {
            let outcome = try await ProcessRunner.run(git, ["git"] + arguments, environment: environment, in: folder)
            guard outcome.status == 0 else {
                throw SyntheticHistoryError(description: "git \(arguments.joined(separator: " ")): \(outcome.stderr)")
            }
            return outcome.stdout
        }
        _ = try await run(["init", "-q", "-b", "main"])
        var stream = ""
        for number in 0..<commits {
            let content = "commit \(number)\n"
            let message = "Change \(number)\n"
            stream +=
                "commit refs/heads/main\nmark :\(number + 1)\n"
                + "committer Synthetic <synthetic@example.com> \(1_800_000_000 + number * 3600) +0000\n"
            stream += "data \(message.utf8.count)\n\(message)"
            if number > 0 { stream += "from :\(number)\n" }
            stream += "M 100644 inline file.txt\ndata \(content.utf8.count)\n\(content)\n"
            if number == 0 || number == suiteChangeAt {
                // The suite the runs ran: written at the first commit, changed at `suiteChangeAt`.
                let suite = "name: smoke\n# version \(number)\n"
                stream += "M 100644 inline suites/smoke.yaml\ndata \(suite.utf8.count)\n\(suite)\n"
            }
        }
        let input = folder.appendingPathComponent(".fast-import")
        try Data(stream.utf8).write(to: input)
        // fast-import reads its stream from standard input, which ProcessRunner does not feed: a shell redirects it.
        let imported = try await ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "git fast-import --quiet < .fast-import"],
            environment: environment, in: folder)
        guard imported.status == 0 else { throw SyntheticHistoryError(description: "git fast-import: \(imported.stderr)") }
        try FileManager.default.removeItem(at: input)
        _ = try await run(["reset", "-q", "--hard", "main"])
        let ids = try await run(["rev-list", "--first-parent", "--reverse", "main"]).split(separator: "\n").map(String.init)

        let reports = folder.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        // Ignore the reports as a project would, so the working tree stays clean.
        try Data("reports/\n".utf8).write(to: folder.appendingPathComponent(".git/info/exclude"))
        var synthetic = SyntheticRuns(seed: seed)
        let encoder = ResultWriter.makeEncoder(pretty: false)
        for (number, id) in ids.enumerated() {
            for run in 0..<runsPerCommit {
                let started = Date(timeIntervalSince1970: Double(1_800_000_000 + number * 3600 + run * 60))
                let ttft = 0.2 * (stepAt.map { number >= $0 } == true ? stepFactor : 1)
                var record = synthetic.record(
                    runId: String(format: "r%05d%02d", number, run), commit: id, startedAt: started,
                    suites: suites, conversations: conversations, turns: turns, ttft: ttft)
                record.git?.subject = "Change \(number)"
                let name = "\(started.timeIntervalSince1970)-\(id.prefix(7))-\(record.runId).json"
                try encoder.encode(record).write(to: reports.appendingPathComponent(name))
            }
        }
        return ids
    }
}
