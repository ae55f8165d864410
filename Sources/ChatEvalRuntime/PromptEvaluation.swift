/// How an engine evaluated a turn's prompt into its cache: the engine calls whose entries the
/// cache held once the prompt was evaluated, in position order — a first turn's prompt in
/// batches, then each generated token on its own, then the next turn's new tokens, and so on.
///
/// `run --verify-cache` has its cold replay evaluate each prompt in the same calls
/// (`ChatRuntime.evaluateNextTurnCold(following:)`): an engine sums in another order for a batch
/// of 81 tokens than for 19, so only the same calls give the same arithmetic both ways and a
/// near-tie cannot flip with no cache at fault — at the engine's own batch size, not one token
/// per call.
public struct PromptEvaluation: Sendable, Hashable {
    /// One engine call.
    public struct Call: Sendable, Hashable {
        /// The position of its first token.
        public var start: Int
        /// The tokens it evaluated, in order.
        public var tokens: [Int32]
        /// How many of its first tokens the cache still held (fewer than `tokens` when a later
        /// turn trimmed the cache inside the call: no cold evaluation can then make the same
        /// call without trimming too, and `CacheVerifier` replays that conversation one token
        /// per call instead).
        public var held: Int

        public init(start: Int, tokens: [Int32], held: Int? = nil) {
            self.start = start
            self.tokens = tokens
            self.held = held ?? tokens.count
        }

        /// The position after the last one it holds.
        public var end: Int { start + held }
    }

    public var calls: [Call]

    public init(calls: [Call] = []) { self.calls = calls }

    /// Positions held, from 0: the calls' ends meet their successors' starts.
    public var heldCount: Int { calls.last?.end ?? 0 }

    /// A call of `tokens` from the position after the last held one.
    public mutating func append(_ tokens: [Int32]) {
        calls.append(Call(start: heldCount, tokens: tokens))
    }

    /// The tokens the cache holds, position by position, when each call holds its part of
    /// `tokens` — the sequence the calls were made for.
    public var heldTokens: [Int32] { calls.flatMap { $0.tokens.prefix($0.held) } }

    /// Whether `other` starts with every call of this one, unchanged: a cache that held this
    /// evaluation went on to hold `other` without re-evaluating or cutting any of it.
    public func isPrefix(of other: PromptEvaluation) -> Bool {
        other.calls.count >= calls.count && zip(calls, other.calls).allSatisfy { $0 == $1 }
    }

    /// Whether a trim cut inside one of the calls.
    public var cutsACall: Bool { calls.contains { $0.held < $0.tokens.count } }

    /// Keeps positions before `position` only: calls from it on are dropped and a call holding
    /// it is cut there (its tokens kept: it is not the call it was).
    public mutating func keep(before position: Int) {
        while let last = calls.last, last.start >= position { calls.removeLast() }
        if let last = calls.indices.last, calls[last].end > position { calls[last].held = position - calls[last].start }
    }
}
