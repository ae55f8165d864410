import ChatEvalCore

/// A suite's work and the time per unit of it, on both sides: a slower TTFT reads as more work
/// (the input's doing) or slower work (the engine's or the machine's).
public struct SuiteWork: Codable, Sendable, Hashable {
    public var suite: String
    /// Evaluated and generated tokens of one replay of every conversation (the first repetition).
    public var baseEvaluated: Int
    public var headEvaluated: Int
    public var baseGenerated: Int
    public var headGenerated: Int
    /// Medians over every turn and repetition, in seconds; nil when no turn measured it.
    public var basePrefillPerToken: Double?
    public var headPrefillPerToken: Double?
    public var baseDecodePerToken: Double?
    public var headDecodePerToken: Double?
}
