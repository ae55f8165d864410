import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites

/// One commit as a bisection replays it: its suites and run settings (read from git, the
/// working tree untouched), and how its records name it.
public struct BisectRevision: Sendable {
    public var commit: String
    public var plan: RunPlan
    public var git: GitSnapshot?
    public var project: ProjectFileRecord?
    /// Why the commit cannot be measured — a suite or the project file that does not load, a
    /// project file that asks for several models — its first line; nil when it can. Such a
    /// commit is skipped as `git bisect skip` skips one (`BisectSkip`, lasting).
    public var unmeasurable: String?
    /// The runtime settings it replays with, in words ("SmolLM2….gguf (sha256 3f2a…), template
    /// embedded, ctx 4096, threads 2, batch 512, cache session"): a journal of other settings is
    /// another question, and a culprit's settings change is named.
    public var settings: String

    public init(
        commit: String, plan: RunPlan, git: GitSnapshot?, project: ProjectFileRecord?, unmeasurable: String? = nil, settings: String = ""
    ) {
        self.commit = commit
        self.plan = plan
        self.git = git
        self.project = project
        self.unmeasurable = unmeasurable
        self.settings = settings
    }

    /// The plan with only the suite named `suite`, or all of them for nil.
    func plan(only suite: String?) -> RunPlan {
        guard let suite else { return plan }
        var plan = plan
        plan.suites = plan.suites.filter { $0.name == suite }
        return plan
    }
}
