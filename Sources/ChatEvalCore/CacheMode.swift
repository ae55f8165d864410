/// How session state is used across the turns of a conversation.
public enum CacheMode: String, Codable, Sendable, CaseIterable {
    /// Keep the session between turns, as a chat app does: each turn evaluates only new tokens.
    case session
    /// Forget the session before every turn: each turn evaluates its whole history again.
    case cold
}

/// How much a sliding-window model (Gemma 3: 512 tokens) caches for its windowed layers.
public enum SlidingWindowCache: String, Codable, Sendable, CaseIterable {
    /// Every position, as for the other layers: a turn can reuse any prefix of the cache.
    case full
    /// About the window only, as llama-server keeps by default (without `--swa-full`): less
    /// memory, but a turn that must trim the cache back further than the window re-evaluates
    /// its whole prompt (the miss's cause is `cacheNotTrimmable`).
    case window
}
