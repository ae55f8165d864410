import ChatEvalCore
import Foundation

/// The head's `ChatEval-Expect` trailers matched against a comparison's changes one by one
/// (`Comparison.accept`): which trailers cover a change, whether they accept it — up to the
/// sum of their bounds, or without limit for a trailer without a bound whose commit is the only
/// one changing the suites' inputs — and, on each trailer, whether it was observed and what went
/// past its bound.
struct ExpectationClaims {
    /// One change a trailer may cover.
    struct Change {
        var suite: String
        var subject: String
        var check: String? = nil
        var direction: Expectation.Direction
        /// Where it happened, for messages: "qa", "qa/pets turn 3".
        var place: String
    }

    enum Outcome {
        /// No trailer that applies covers it: it fails.
        case none
        /// Accepted: who expects it, in words ("as abc1234 expects (ChatEval-Expect: qa ttft worse +15%)").
        case accepted(String)
        /// Past the sum of the bounds of the trailers covering it: it still fails; by how much, in words.
        case exceeded(String)
    }

    private(set) var expectations: [Expectation]

    init(_ declared: [Expectation]) { expectations = declared }

    /// The expectations with every one marked observed or not.
    var finished: [Expectation] {
        expectations.map { expectation in
            var expectation = expectation
            if expectation.observed == nil { expectation.observed = false }
            return expectation
        }
    }

    /// Marks the trailers covering `change` observed (an improvement: nothing to accept).
    mutating func observe(_ change: Change) {
        for index in covering(change) { expectations[index].observed = true }
    }

    /// Whether the trailers accept `change`, which is `amount` worse in the subject's bound unit
    /// (tokens per turn, or a share; nil when it has no size) — `shown` the least a comparison's
    /// interval allows, judged against the bounds (the amount itself where exact). `words` names
    /// the change for a message ("evaluated-tokens +60").
    mutating func claim(_ change: Change, amount: Double?, shown: Double?, words: String) -> Outcome {
        let covering = covering(change)
        for index in covering { expectations[index].observed = true }
        let applying = covering.filter { expectations[$0].notApplied == nil }
        guard !applying.isEmpty else { return .none }
        if let open = applying.first(where: { expectations[$0].bound == nil }) { return .accepted(Self.expects([expectations[open]])) }
        let limit = applying.reduce(0) { $0 + (expectations[$1].bound ?? 0) }
        let bounds = applying.map { "\(expectations[$0].commit) \(expectations[$0].boundText ?? "")" }.joined(separator: ", ")
        let limitText = Expectation.amountText(limit, subject: change.subject)
        guard let judged = shown ?? amount, judged <= limit + 1e-9 else {
            let excess = (shown ?? amount).map {
                Self.excessText($0 - limit, subject: change.subject, atLeast: shown != nil && amount != shown)
            }
            let text =
                "\(change.place): \(words), "
                + (excess.map { "\($0) beyond" } ?? "of no size to hold against")
                + " the bound \(limitText) of the trailers that cover it (\(bounds))"
            for index in applying { expectations[index].exceeded = (expectations[index].exceeded ?? []) + [text] }
            return .exceeded("past the bound \(limitText) of \(bounds): \(words)")
        }
        return .accepted(Self.expects(applying.map { expectations[$0] }) + ", within the bound \(limitText)")
    }

    /// The exact ledger's broken rules and exact checks the trailers accept, moved out of the failures.
    mutating func accept(_ ledger: inout LedgerComparison) {
        for index in ledger.changes.indices {
            let change = ledger.changes[index]
            var kept: [String] = []
            for rule in change.regressions {
                guard let subject = LedgerChange.subject(ofRule: rule) else {
                    kept.append(rule)
                    continue
                }
                let amount = Self.amount(of: subject, in: change)
                let words = "\(subject) " + (amount.map { Expectation.amountText($0, subject: subject) } ?? "changed")
                let claimed = claim(
                    Change(suite: change.turn.suite, subject: subject, direction: .worse, place: change.turn.description), amount: amount,
                    shown: nil, words: words)
                if case .accepted = claimed {
                    ledger.changes[index].accepted = (ledger.changes[index].accepted ?? []) + [rule]
                } else {
                    kept.append(rule)
                }
            }
            ledger.changes[index].regressions = kept
        }
        for index in ledger.checks.indices {
            let check = ledger.checks[index]
            let change = Change(
                suite: check.turn.suite, subject: "checks", check: check.check, direction: check.headPasses ? .better : .worse,
                place: "\(check.turn) check \(check.position + 1) \(check.check)")
            if check.headPasses {
                observe(change)
            } else if case .accepted = claim(change, amount: nil, shown: nil, words: "checks:\(check.check)") {
                ledger.checks[index].acceptedBy = covering(change).filter { expectations[$0].notApplied == nil }
                    .map { expectations[$0].commit }.joined(separator: ", ")
            }
        }
    }

    /// How much worse a broken ledger rule's subject went in `change`: tokens per turn, or the
    /// share reuse efficiency fell by; nil for the answer, or a count a side does not know.
    static func amount(of subject: String, in change: LedgerChange) -> Double? {
        switch subject {
        case "evaluated-tokens":
            guard let base = change.base.evaluatedTokens, let head = change.head.evaluatedTokens else { return nil }
            return Double(head - base)
        case "generated-tokens": return Double(change.head.generatedTokens - change.base.generatedTokens)
        case Metric.reuseEfficiency.name:
            guard let base = change.base.reuseEfficiency, let head = change.head.reuseEfficiency else { return nil }
            return base - head
        default: return nil
        }
    }

    /// How much worse a metric's change is (its estimate), and at least (its interval's end
    /// nearer to no change), on its scale; nil without an estimate.
    static func worseness(_ change: MetricChange) -> (estimate: Double, atLeast: Double)? {
        guard let estimate = change.change else { return nil }
        if change.metric.polarity == .smallerIsBetter { return (estimate, change.changeLower ?? estimate) }
        return (-estimate, change.changeUpper.map { -$0 } ?? -estimate)
    }

    /// A metric's change for a message: "ttft +32.0% [+25.1%, +40.2%]".
    static func words(_ change: MetricChange) -> String {
        func signed(_ value: Double?) -> String {
            guard let value else { return "?" }
            if !value.isFinite { return value > 0 ? "+∞" : "−∞" }
            return change.scale == .relative ? String(format: "%+.1f%%", value * 100) : String(format: "%+.3f", value)
        }
        return "\(change.metric.name) \(signed(change.change)) [\(signed(change.changeLower)), \(signed(change.changeUpper))]"
    }

    /// The trailers covering `change`, in the order they were declared.
    private func covering(_ change: Change) -> [Int] {
        expectations.indices.filter {
            expectations[$0].covers(suite: change.suite, subject: change.subject, check: change.check, direction: change.direction)
        }
    }

    /// "as abc1234 expects (ChatEval-Expect: qa ttft worse)", or "as abc1234, def5678 expect (…; …)".
    private static func expects(_ trailers: [Expectation]) -> String {
        let commits = trailers.map(\.commit).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return "as \(commits.joined(separator: ", ")) \(commits.count == 1 ? "expects" : "expect") ("
            + trailers.map { "\(Expectation.trailerKey): \($0)" }.joined(separator: "; ") + ")"
    }

    /// "57 tokens", "at least 10.1 points" (of a share: a relative change's percent).
    private static func excessText(_ excess: Double, subject: String, atLeast: Bool) -> String {
        switch Expectation.boundUnit(of: subject) {
        case .tokens: String(format: "%.0f token%@", excess, excess == 1 ? "" : "s")
        case .relative, nil: (atLeast ? "at least " : "") + String(format: "%.1f points", excess * 100)
        }
    }
}
