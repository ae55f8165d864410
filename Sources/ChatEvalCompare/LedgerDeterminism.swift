import ChatEvalCore
import ChatEvalStore

/// Whether a turn's ledger is the same in every repetition of a side. Established, never
/// assumed: only two or more identical repetitions of a greedy turn are `exact`, and a sampled
/// turn is never exact, however many of its repetitions agree.
public enum LedgerDeterminism: String, Codable, Sendable, Hashable {
    /// Two or more greedy repetitions, every ledger identical.
    case exact
    /// Repetitions whose ledgers differ: a sample, compared only by the statistical gate.
    case varies
    /// One repetition of a greedy (temperature 0) turn: exact by construction on one build, not
    /// yet seen twice. Compared exactly (the ledger's point: one repetition per side) — and gated
    /// only against a side that computed with the same arithmetic (`ReplayArithmetic`).
    case greedyOnce = "greedy_once"
    /// One repetition of a sampled turn: nothing says it would repeat. Never compared exactly.
    case sampledOnce = "sampled_once"
    /// Two or more repetitions of a sampled turn whose ledgers happen to agree (a near-greedy
    /// temperature, a short answer): agreement seen, not guaranteed — a changed input can change
    /// what the sampler draws. Never compared exactly.
    case sampled

    /// True when the ledger may be compared as a fact.
    public var isComparable: Bool { self == .exact || self == .greedyOnce }

    /// In words, for reports.
    public var words: String {
        switch self {
        case .exact: "exact"
        case .varies: "varies"
        case .greedyOnce: "greedy, 1 repetition"
        case .sampledOnce: "sampled, 1 repetition"
        case .sampled: "sampled (alike, never exact)"
        }
    }
}
