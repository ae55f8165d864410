import ChatEvalCore

/// The `ChatEval-Expect` trailers of the commits a comparison's head adds to its base: what they
/// declare, and warnings for trailers that do not read (a commit in the history cannot be
/// corrected, so a bad trailer is named, never an error).
public struct DeclaredExpectations {
    public var expectations: [Expectation] = []
    public var warnings: [String] = []

    /// The most commits whose trailers are read.
    public static let maxCommits = 1000

    /// The trailers of the first-parent commits after `base` up to `head` (commit ids or
    /// revisions); none when either is unknown or the repository cannot say.
    public init(repository: (some CommitTrailers)?, base: String?, head: String?) {
        guard let repository, let base, let head, base != head else { return }
        let commits: [(commit: CommitSummary, values: [String])]
        do {
            commits = try repository.trailers(named: Expectation.trailerKey, from: head, after: base, maxCount: Self.maxCommits)
        } catch {
            // Without them every expected change fails as a regression: say why none were read.
            warnings.append("\(Expectation.trailerKey) trailers were not read (\(error)); every regression fails the comparison")
            return
        }
        for (commit, values) in commits {
            for value in values {
                switch Expectation.parse(value, commit: commit.shortId) {
                case .success(let expectation): expectations.append(expectation)
                case .failure(let problem):
                    warnings.append("commit \(commit.shortId): \(Expectation.trailerKey): \(problem.message); this trailer is ignored")
                }
            }
        }
    }
}
