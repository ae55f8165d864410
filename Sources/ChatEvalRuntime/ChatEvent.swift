import ChatEvalCore

/// What a runtime streams for one assistant turn.
public enum ChatEvent: Sendable, Hashable {
    /// A piece of the answer's text, in order; never splits a character. A runtime may gather
    /// several tokens into one chunk.
    case chunk(String)
    /// The turn's measurements; always the last event of a successful turn.
    case info(TurnMetrics)
}
