import ChatEvalCore
import ChatEvalStore

/// The run-to-run spread of a base's recorded history (`RunToRunSpread.fromHistory`): the
/// complete, clean runs of the base commit and its first-parent ancestors measured like the base
/// run (same machine class, model and cache mode), oldest first, each suite's level of a metric
/// the median of its turns.
public enum RunSpreadHistory {
    /// `commits` newest first (the base commit first); `runs` the index's runs of them.
    public static func estimate(commits: [String], runs: [RunDigest], like base: RunRecord) -> RunToRunSpread? {
        let order = Dictionary(commits.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let alike = runs.filter { run in
            run.status == .complete && !run.dirty && run.machine == base.machine.performanceClass
                && run.modelSha256 == base.modelSha256 && run.cacheMode == base.settings.cacheMode
                && run.commit.flatMap { order[$0] } != nil
        }
        // Oldest commit first; runs of one commit in the order they started.
        let sorted = alike.sorted { a, b in
            let (ca, cb) = (order[a.commit!]!, order[b.commit!]!)
            return ca != cb ? ca > cb : a.startedAt < b.startedAt
        }
        let levels = sorted.map { run in
            Dictionary(
                run.suites.map { suite in
                    (suite.name, suite.samples.compactMapValues { Distribution($0)?.median })
                }, uniquingKeysWith: { first, _ in first })
        }
        return RunToRunSpread.fromHistory(levels)
    }
}
