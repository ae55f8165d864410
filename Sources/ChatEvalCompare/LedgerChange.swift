import ChatEvalCore

/// One exact turn's ledger on both sides, what differs, why, and which rules it breaks.
public struct LedgerChange: Codable, Sendable {
    public var turn: LedgerTurn
    public var base: WorkLedger
    public var head: WorkLedger
    /// The counts that differ, by name (`WorkLedger.counts`), with the stop reason if it changed.
    public var differences: [CountDifference]
    /// The answer's first difference, when the answer changed.
    public var answer: TextDivergence?
    /// Why the work changed, as far as the ledgers and the reuse accounting tell.
    public var cause: String?
    /// Rules this change breaks ("evaluated tokens grew", ...): empty when it only reports.
    public var regressions: [String]
    /// Rules it breaks that a head commit's `ChatEval-Expect` trailer expects: reported, not failed.
    public var accepted: [String]?

    /// The `Expectation` subject of a broken rule.
    public static func subject(ofRule rule: String) -> String? {
        switch rule {
        case "evaluated tokens grew": "evaluated-tokens"
        case "reuse efficiency fell": Metric.reuseEfficiency.name
        case "generated tokens grew": "generated-tokens"
        case "the answer changed": "answers"
        default: nil
        }
    }
}
