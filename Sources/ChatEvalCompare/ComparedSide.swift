import ChatEvalCore

/// One side of a comparison: the runs it pooled and what they ran.
public struct ComparedSide: Codable, Sendable {
    /// Commit of the runs (nil outside a repository).
    public var commit: String?
    public var shortCommit: String?
    public var subject: String?
    /// True when a run was made with uncommitted changes.
    public var dirty: Bool
    /// Run ids pooled on this side, and the files or notes they came from.
    public var runs: [String]
    public var sources: [String]
    public var model: String
    public var machine: String
    public var repetitions: Int

    public init(
        commit: String?, shortCommit: String?, subject: String?, dirty: Bool, runs: [String], sources: [String],
        model: String, machine: String, repetitions: Int
    ) {
        self.commit = commit
        self.shortCommit = shortCommit
        self.subject = subject
        self.dirty = dirty
        self.runs = runs
        self.sources = sources
        self.model = model
        self.machine = machine
        self.repetitions = repetitions
    }
}
