/// Where and why a turn re-evaluated tokens its cache held: found by comparing the cached token
/// sequence with the new prompt's at the first token where they differ.
public struct ReuseMiss: Codable, Sendable, Hashable {
    public enum Cause: String, Codable, Sendable, Hashable, CaseIterable {
        /// The new prompt differs inside what the previous turn's prompt was: earlier turns are sent
        /// differently now (a history window dropping the first ones, a date or counter in the
        /// system prompt, history the template rewrites).
        case earlierTurnsRerendered = "earlier_turns_rerendered"
        /// It differs inside the previous answer, and the text sent from there is not the text the
        /// cache held: the template rewrites the answer it sends back (trims it, strips a part).
        case previousAnswerRewritten = "previous_answer_rewritten"
        /// It differs inside the previous answer though the text is the same: the answer, sent back
        /// as text, tokenizes into other tokens than the ones generated (a sampled sequence that
        /// is not the tokenizer's own split of its text).
        case answerRetokenized = "answer_retokenized"
        /// It differs in the answer's last tokens: the same text tokenizes differently at its end
        /// once the template's next tokens follow it.
        case answerBoundary = "answer_boundary"
        /// The engine could not trim its cache back to the common prefix (a sliding-window or
        /// recurrent model): everything was evaluated again.
        case cacheNotTrimmable = "cache_not_trimmable"
        /// A server served fewer tokens from its cache than the previous request left there, and
        /// does not say why (another conversation evicted them, a cache turned off, a slot changed).
        case serverSide = "server_side"
        /// The cache mode is cold: the cache was dropped before the turn by setting, so a
        /// comparison with a session run shows what reuse is worth.
        case coldCache = "cold_cache"

        /// The cause in words, for reports.
        public var explanation: String {
            switch self {
            case .earlierTurnsRerendered:
                "earlier turns are sent differently now (a history window, a changing system prompt, rewritten history)"
            case .previousAnswerRewritten: "the template rewrites the previous answer it sends back"
            case .answerRetokenized: "the previous answer, sent back as text, tokenizes differently from the tokens generated"
            case .answerBoundary: "the previous answer's end tokenizes differently when sent back"
            case .cacheNotTrimmable: "the engine cannot trim its cache to the common prefix (sliding-window or recurrent model)"
            case .serverSide: "the server served less from its cache than the previous request left there, and does not say why"
            case .coldCache: "the cache mode is cold: the cache is dropped before every turn"
            }
        }
    }

    public var cause: Cause
    /// Token index where the cached and sent sequences first differ.
    public var position: Int
    /// A few tokens of text before it (common to both), then what the cache held and what was sent from there.
    public var before: String
    public var cached: String
    public var sent: String

    public init(cause: Cause, position: Int, before: String, cached: String, sent: String) {
        self.cause = cause
        self.position = position
        self.before = before
        self.cached = cached
        self.sent = sent
    }

    /// Classifies a divergence at `position`: `previousPrompt` tokens of the cache were the
    /// previous prompt, the rest (up to `cached`) its answer; `trimFailed` when the engine could not
    /// keep the common prefix; `sameText` when the text sent from the divergence begins with the
    /// text the cache held from there.
    public static func cause(position: Int, previousPrompt: Int, cached: Int, trimFailed: Bool, sameText: Bool = false) -> Cause {
        if trimFailed { return .cacheNotTrimmable }
        if position < previousPrompt { return .earlierTurnsRerendered }
        if position >= cached - 2 { return .answerBoundary }
        return sameText ? .answerRetokenized : .previousAnswerRewritten
    }
}
