/// What the cache verification found, conversation by conversation.
public struct CacheVerification: Sendable {
    public struct Conversation: Sendable {
        public var suite: String
        public var conversation: String
        /// Turns whose answers were identical with the session cache and cold.
        public var turnsIdentical: Int
        /// The first turn whose answers differ: a cache fault.
        public var divergence: CacheDivergence?
        /// Why the comparison stopped before the end without a divergence: a turn answered one way
        /// and not the other (a fault of its own).
        public var unanswered: String?
        /// Where the replays ended alike before the end: a turn that failed the same way both ways.
        public var endedAlike: String?
        /// How the cold side was evaluated: in this many passes over the session's own engine
        /// calls, each checking several turns at once (`CacheVerifier`); nil when it was replayed
        /// turn by turn.
        public var coldPasses: Int?
        /// Both sides were replayed one token per engine call: a trim in the session cut inside
        /// an engine call (a history window), which no cold evaluation can make alike without
        /// trimming too.
        public var oneTokenPerCall = false
        /// Seconds the session replay and the cold side took.
        public var sessionSeconds: Double?
        public var coldSeconds: Double?

        public init(suite: String, conversation: String, turnsIdentical: Int, divergence: CacheDivergence? = nil, unanswered: String? = nil)
        {
            self.suite = suite
            self.conversation = conversation
            self.turnsIdentical = turnsIdentical
            self.divergence = divergence
            self.unanswered = unanswered
        }
    }

    public var conversations: [Conversation]
    /// False when the verification was stopped before every conversation was verified.
    public var complete: Bool

    public init(conversations: [Conversation], complete: Bool) {
        self.conversations = conversations
        self.complete = complete
    }

    /// True when every conversation was verified and none diverged.
    public var passed: Bool { complete && faults.isEmpty && !conversations.contains { $0.unanswered != nil } }
    public var faults: [Conversation] { conversations.filter { $0.divergence != nil } }
}
