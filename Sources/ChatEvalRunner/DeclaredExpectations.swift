import ChatEvalCore

/// The `ChatEval-Expect` trailers of the commits a comparison's head adds to its base: what they
/// declare, each with the other commits that change the run's inputs (a trailer without a bound
/// applies only when there are none), and warnings — for trailers that do not read, a bare
/// `checks`, and trailers that will not be applied (a commit in the history cannot be corrected,
/// so a bad trailer is named, never an error).
public struct DeclaredExpectations {
    public var expectations: [Expectation] = []
    public var warnings: [String] = []

    /// The most commits whose trailers are read.
    public static let maxCommits = 1000

    /// The trailers of every commit `head` adds to `base` (commit ids or revisions): for a pull
    /// request's merge commit, the pull request's own commits. `inputs` are the paths, relative to
    /// the repository root, whose change changes what the run reads (the project file, the suite
    /// files and folders); nil when not known, and then every commit but a merge counts as
    /// changing them. None when either end is unknown or the repository cannot say.
    public init(repository: (some CommitTrailers)?, base: String?, head: String?, inputs: [String]?) {
        guard let repository, let base, let head, base != head else { return }
        let commits: [(commit: CommitSummary, isMerge: Bool, values: [String])]
        do {
            commits = try repository.addedCommits(trailer: Expectation.trailerKey, head: head, base: base, maxCount: Self.maxCommits)
        } catch {
            // Without them every expected change fails as a regression: say why none were read.
            warnings.append("\(Expectation.trailerKey) trailers were not read (\(error)); every regression fails the comparison")
            return
        }
        warnUnread(commits, repository: repository)
        guard commits.contains(where: { !$0.values.isEmpty }) else { return }
        let changing = changingInputs(commits, repository: repository, inputs: inputs)
        for (commit, _, values) in commits {
            for value in values {
                switch Expectation.parse(value, commit: commit.shortId) {
                case .success(var expectation):
                    expectation.otherCommitsChangingInputs = changing.filter { $0 != commit.shortId }
                    if let advice = expectation.advice { warnings.append("commit \(commit.shortId): \(Expectation.trailerKey): \(advice)") }
                    if let reason = expectation.notApplied {
                        warnings.append("\(Expectation.trailerKey) on \(commit.shortId) is not applied: \(reason)")
                    }
                    expectations.append(expectation)
                case .failure(let problem):
                    warnings.append("commit \(commit.shortId): \(Expectation.trailerKey): \(problem.message); this trailer is ignored")
                }
            }
        }
    }

    /// Names the `ChatEval-Expect` lines git does not read as trailers: a commit whose trailer
    /// paragraph holds one line of prose has every trailer dropped by git, silently.
    private mutating func warnUnread(_ commits: [(commit: CommitSummary, isMerge: Bool, values: [String])], repository: some CommitTrailers)
    {
        for (commit, _, _) in commits {
            guard let unread = try? repository.unreadTrailers(Expectation.trailerKey, in: commit.id) else { continue }
            let first = unread.lines.first.map { "\"\($0.count > 80 ? $0.prefix(79) + "…" : Substring($0))\"" } ?? ""
            let what =
                unread.lines.count > 1
                ? "\(first) and \(unread.lines.count - 1) more are not read as \(Expectation.trailerKey) trailers"
                : "\(first) is not read as a \(Expectation.trailerKey) trailer"
            warnings.append(
                "commit \(commit.shortId): \(what): \(unread.reason); "
                    + "end the message with a paragraph of trailers alone (amend the commit, or declare the change on a new one)")
        }
    }

    /// The short ids of the commits, merges left out (their content comes from their parents),
    /// that change one of `inputs` — every one when `inputs` is nil. A commit whose change cannot
    /// be read counts as changing them, with a warning.
    private mutating func changingInputs(
        _ commits: [(commit: CommitSummary, isMerge: Bool, values: [String])], repository: some CommitTrailers, inputs: [String]?
    ) -> [String] {
        commits.filter { !$0.isMerge }.map(\.commit).filter { commit in
            guard let inputs else { return true }
            do {
                return try !repository.changedPaths(inputs, in: commit.id).isEmpty
            } catch {
                warnings.append("could not read what \(commit.shortId) changed (\(error)); counted as changing the suites' inputs")
                return true
            }
        }.map(\.shortId)
    }
}
