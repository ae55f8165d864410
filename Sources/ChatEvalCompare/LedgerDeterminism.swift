import ChatEvalCore
import ChatEvalStore

/// Whether a turn's ledger is the same in every repetition of a side. Established, never
/// assumed: only two or more identical repetitions are `exact`.
public enum LedgerDeterminism: String, Codable, Sendable, Hashable {
    /// Two or more repetitions, every ledger identical.
    case exact
    /// Repetitions whose ledgers differ: a sample, compared only by the statistical gate.
    case varies
    /// One repetition of a greedy (temperature 0) turn: exact by construction on one build, not
    /// yet seen twice. Compared exactly (the ledger's point: one repetition per side).
    case greedyOnce = "greedy_once"
    /// One repetition of a sampled turn: nothing says it would repeat. Never compared exactly.
    case sampledOnce = "sampled_once"

    /// True when the ledger may be compared as a fact.
    public var isComparable: Bool { self == .exact || self == .greedyOnce }

    /// In words, for reports.
    public var words: String {
        switch self {
        case .exact: "exact"
        case .varies: "varies"
        case .greedyOnce: "greedy, 1 repetition"
        case .sampledOnce: "sampled, 1 repetition"
        }
    }
}
