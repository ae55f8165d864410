import ChatEvalCore

/// A prompt suite as loaded from `suites/*.yaml`: conversations to replay, with settings resolved
/// (suite defaults overlaid by each conversation's overrides).
public struct Suite: Sendable, Hashable {
    public var name: String
    public var description: String?
    /// The file it was loaded from.
    public var path: String
    public var conversations: [SuiteConversation]
    public var gates: SuiteGates
    /// The suite's own comparison thresholds (`compare:`), over the project file's.
    public var comparison: ComparisonOverrides?
    /// Latency objectives under load (`slo:`), for goodput (`run --concurrency`).
    public var slo: ServiceLevelObjectives?
    /// The YAML it was parsed from, as read (kept in a run's journal so that `recover` grades
    /// with the very suite the run used).
    public var text: String
    /// Valid but suspicious definitions (a check that can never fail, a bound whose unit looks
    /// mistaken), located; the suite runs as written.
    public var warnings: [SuiteError] = []
    /// The ids of the suite's `variants:`, in order: every conversation runs once under each
    /// (empty without variants).
    public var variants: [String] = []

    public init(
        name: String, description: String? = nil, path: String, conversations: [SuiteConversation], gates: SuiteGates = SuiteGates(),
        comparison: ComparisonOverrides? = nil, slo: ServiceLevelObjectives? = nil, text: String = ""
    ) {
        self.text = text
        self.slo = slo
        self.name = name
        self.description = description
        self.path = path
        self.conversations = conversations
        self.gates = gates
        self.comparison = comparison
    }

    public var checkCount: Int {
        conversations.reduce(0) { $0 + $1.checks.count + $1.turnChecks.reduce(0) { $0 + $1.count } }
    }

    public var turnCount: Int { conversations.reduce(0) { $0 + $1.script.userMessages.count } }
}

public struct SuiteConversation: Sendable, Hashable {
    public var id: String
    public var description: String?
    public var tags: [String]
    /// What to replay (system prompt, options, history window, user messages).
    public var script: ConversationScript
    /// The checks of each turn, in turn order (as many lists as user messages).
    public var turnChecks: [[CheckDefinition]]
    /// Checks of the whole conversation (performance over all its turns), graded with the last turn.
    public var checks: [CheckDefinition]
    /// The suite variant this copy of the conversation runs under (its `id` is then
    /// "conversation@variant"); nil in a suite without `variants:`.
    public var variant: String?

    /// The id as written in the suite, without "@variant".
    public var baseID: String {
        guard let variant, id.hasSuffix("@" + variant) else { return id }
        return String(id.dropLast(variant.count + 1))
    }

    public init(
        id: String, description: String? = nil, tags: [String] = [], script: ConversationScript,
        turnChecks: [[CheckDefinition]]? = nil, checks: [CheckDefinition] = []
    ) {
        self.id = id
        self.description = description
        self.tags = tags
        self.script = script
        self.turnChecks = turnChecks ?? Array(repeating: [], count: script.userMessages.count)
        self.checks = checks
    }
}

/// The settings a conversation runs with; every field optional so that defaults and overrides
/// overlay each other.
struct ConversationSettings {
    var system: String?
    var maxTokens: Int?
    var temperature: Double?
    var topP: Double?
    var topK: Int?
    var seed: UInt32?
    var stop: [String]?
    var maxMessages: Int?
    var variables: [String: String] = [:]

    static let keys = ["system", "max_tokens", "temperature", "top_p", "top_k", "seed", "stop", "max_messages", "vars"]

    /// `self` with every field `other` sets replaced (variables merged).
    func overlaid(with other: ConversationSettings) -> ConversationSettings {
        ConversationSettings(
            system: other.system ?? system, maxTokens: other.maxTokens ?? maxTokens,
            temperature: other.temperature ?? temperature, topP: other.topP ?? topP, topK: other.topK ?? topK,
            seed: other.seed ?? seed, stop: other.stop ?? stop, maxMessages: other.maxMessages ?? maxMessages,
            variables: variables.merging(other.variables) { $1 })
    }

    var options: GenerationOptions {
        let base = GenerationOptions()
        return GenerationOptions(
            maxTokens: maxTokens ?? base.maxTokens, temperature: temperature ?? base.temperature,
            topP: topP ?? base.topP, topK: topK ?? base.topK, seed: seed ?? base.seed, stop: stop ?? base.stop)
    }
}
