import ChatEvalCore

/// One replay of one conversation.
public struct ConversationRecord: Codable, Sendable {
    public var id: String
    /// 1-based repetition; 0 for a warm-up replay.
    public var repetition: Int
    public var warmup: Bool
    public var systemPrompt: String?
    public var options: GenerationOptions
    /// The conversation's description and tags in its suite.
    public var description: String?
    public var tags: [String]?
    public var turns: [TurnRecord]
    /// Verdicts of the conversation-level checks.
    public var checks: [Verdict]
    /// How busy the machine was while this replay ran (absent in older records).
    public var load: ReplayLoad?
    /// Why this replay is left out of gates and comparisons, when it is: a paired run re-measures
    /// a replay that other processes disturbed and keeps the disturbed one here, marked.
    public var leftOut: String?
    /// The suite variant this replay ran under (`variants:`), whose id its own `id` ends with
    /// after an "@"; absent for a suite without variants.
    public var variant: String?

    /// The conversation's id without its variant: the row of a variant matrix.
    public var baseID: String {
        guard let variant, id.hasSuffix("@" + variant) else { return id }
        return String(id.dropLast(variant.count + 1))
    }

    /// Every verdict of this replay: its turns' checks, then the conversation's.
    public var verdicts: [Verdict] { turns.flatMap { $0.checks ?? [] } + checks }

    /// A measured replay that counts: not a warm-up, not left out.
    public var isMeasured: Bool { !warmup && leftOut == nil }

    public init(
        id: String, repetition: Int, warmup: Bool, systemPrompt: String?, options: GenerationOptions,
        description: String? = nil, tags: [String]? = nil, turns: [TurnRecord] = [], checks: [Verdict] = []
    ) {
        self.description = description
        self.tags = tags
        self.id = id
        self.repetition = repetition
        self.warmup = warmup
        self.systemPrompt = systemPrompt
        self.options = options
        self.turns = turns
        self.checks = checks
    }
}
