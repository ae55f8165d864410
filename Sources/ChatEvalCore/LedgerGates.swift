/// Which exact ledger changes fail a comparison (exit 1). Each rule is zero-tolerance: the
/// ledger of an exact turn is a count, the same on every repetition, so any change is a fact.
/// Rules never apply to a turn whose ledger varies between repetitions on a side.
///
/// Project file:
/// ```yaml
/// ledger:
///   evaluated_tokens: gate     # a turn may not evaluate more prompt tokens (default: gate)
///   reuse_efficiency: gate     # a turn's reuse efficiency may not fall (default: gate)
///   generated_tokens: report   # a longer answer is named, not failed (default: report)
///   answers: report            # a changed answer is named, not failed (default: report)
/// ```
public struct LedgerGates: Codable, Sendable, Hashable {
    public enum Rule: String, Codable, Sendable, Hashable, CaseIterable {
        /// A change in the wrong direction fails the comparison.
        case gate
        /// A change is reported, never failed.
        case report
    }

    /// Evaluated (prefilled) tokens may not grow.
    public var evaluatedTokens: Rule
    /// Reuse efficiency may not fall.
    public var reuseEfficiency: Rule
    /// Generated tokens may not grow.
    public var generatedTokens: Rule
    /// Answers may not change.
    public var answers: Rule

    public init(evaluatedTokens: Rule = .gate, reuseEfficiency: Rule = .gate, generatedTokens: Rule = .report, answers: Rule = .report) {
        self.evaluatedTokens = evaluatedTokens
        self.reuseEfficiency = reuseEfficiency
        self.generatedTokens = generatedTokens
        self.answers = answers
    }

    public static let `default` = LedgerGates()

    /// The project file's keys, in order.
    public static let keys = ["evaluated_tokens", "reuse_efficiency", "generated_tokens", "answers"]

    /// The rule of `key` (one of `keys`).
    public subscript(key: String) -> Rule? {
        get {
            switch key {
            case "evaluated_tokens": evaluatedTokens
            case "reuse_efficiency": reuseEfficiency
            case "generated_tokens": generatedTokens
            case "answers": answers
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch key {
            case "evaluated_tokens": evaluatedTokens = newValue
            case "reuse_efficiency": reuseEfficiency = newValue
            case "generated_tokens": generatedTokens = newValue
            case "answers": answers = newValue
            default: break
            }
        }
    }
}
