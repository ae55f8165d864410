/// How much a sliding-window model (Gemma 3: 512 tokens) caches for its windowed layers.
public enum SlidingWindowCache: String, Codable, Sendable, CaseIterable {
    /// Every position, as for the other layers: a turn can reuse any prefix of the cache.
    case full
    /// About the window only, as llama-server keeps by default (without `--swa-full`): less
    /// memory, but a turn that must trim the cache back further than the window re-evaluates
    /// its whole prompt (the miss's cause is `cacheNotTrimmable`).
    case window
}
