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

    public init(commit: String, plan: RunPlan, git: GitSnapshot?, project: ProjectFileRecord?) {
        self.commit = commit
        self.plan = plan
        self.git = git
        self.project = project
    }

    /// The plan with only the suite named `suite`, or all of them for nil.
    func plan(only suite: String?) -> RunPlan {
        guard let suite else { return plan }
        var plan = plan
        plan.suites = plan.suites.filter { $0.name == suite }
        return plan
    }
}
