/// Finds stop strings in streamed text and holds back any tail that could be the start of one,
/// so text that later turns out to belong to a stop string is never emitted.
public struct StopStringMatcher: Sendable {
    public let stopStrings: [String]
    private var held = ""

    public init(_ stopStrings: [String]) {
        self.stopStrings = stopStrings.filter { !$0.isEmpty }
    }

    /// What to emit after adding some text.
    public enum Outcome: Equatable, Sendable {
        /// Text that is safe to emit now; more may follow.
        case text(String)
        /// A stop string was found: the text before it, after which generation must stop.
        case stopped(before: String)
    }

    public mutating func append(_ text: String) -> Outcome {
        guard !stopStrings.isEmpty else { return .text(text) }
        held += text
        if let cut = earliestStop(in: held) {
            let before = String(held[..<cut])
            held = ""
            return .stopped(before: before)
        }
        let keep = longestSuffixThatStartsAStop(held)
        let emitEnd = held.index(held.endIndex, offsetBy: -keep)
        let emit = String(held[..<emitEnd])
        held = String(held[emitEnd...])
        return .text(emit)
    }

    /// The held-back text, once generation has ended without a stop string.
    public mutating func flush() -> String {
        defer { held = "" }
        return held
    }

    private func earliestStop(in text: String) -> String.Index? {
        stopStrings.compactMap { text.range(of: $0)?.lowerBound }.min()
    }

    /// Characters at the end of `text` that are a proper prefix of some stop string.
    private func longestSuffixThatStartsAStop(_ text: String) -> Int {
        var best = 0
        for stop in stopStrings {
            var length = min(stop.count - 1, text.count)
            while length > best {
                if text.hasSuffix(stop.prefix(length)) {
                    best = length
                    break
                }
                length -= 1
            }
        }
        return best
    }
}
