import ChatEvalCore

/// How the run was asked to run.
public struct RunSettings: Codable, Sendable, Hashable {
    public var cacheMode: CacheMode
    /// Measured repetitions of every conversation.
    public var repetitions: Int
    /// Conversations replayed before measuring and not counted.
    public var warmupConversations: Int
    /// The conversations picked (`--filter`, `--tag`, `suite.yaml#id`); nil when all ran.
    public var selection: SuiteSelectionRecord?
    /// Where each setting's value came from, keyed by its name in the project file (`model`,
    /// `chat_template`, `context_size`, `threads`, `batch_size`, `sliding_window_cache`, `cache_mode`, `repetitions`,
    /// `warmup`, `suites`, `compare`). A comparison trusts a difference both sides took from
    /// their commit's project file as the commit's own change. Absent in older records.
    public var sources: [String: SettingSource]?

    public init(
        cacheMode: CacheMode, repetitions: Int, warmupConversations: Int, sources: [String: SettingSource]? = nil,
        selection: SuiteSelectionRecord? = nil
    ) {
        self.selection = selection
        self.cacheMode = cacheMode
        self.repetitions = repetitions
        self.warmupConversations = warmupConversations
        self.sources = sources
    }
}
