import ChatEvalCore

/// Evaluates one kind of check against a subject. Implementations are immutable values built
/// (and validated) by the catalogue; `evaluate` is pure and never throws or traps.
protocol CheckEvaluator: Sendable {
    func evaluate(_ subject: GradingSubject) -> Outcome
}

/// A validated, ready-to-run check, as built by `CheckCatalogue.make`.
public struct Check: Sendable {
    /// The type name as written (`contains`, `not-regex`, `keywords:frequency`...).
    public let type: String
    /// Share of this check in a turn's score (`weight`, default 1).
    public let weight: Double
    /// For checks with a score: pass when score ≥ threshold (`threshold`), instead of the check's own rule.
    public let threshold: Double?
    /// True for `not-…` checks: the verdict of the base check, inverted.
    public let isNegated: Bool
    let evaluator: any CheckEvaluator

    init(type: String, weight: Double, threshold: Double?, isNegated: Bool, evaluator: any CheckEvaluator) {
        self.type = type
        self.weight = weight
        self.threshold = threshold
        self.isNegated = isNegated
        self.evaluator = evaluator
    }

    /// Grades `subject`. Never throws: a check that cannot be evaluated gives a failed verdict
    /// with `error` set (and negation does not turn such an error into a pass).
    public func evaluate(_ subject: GradingSubject) -> Verdict {
        // Every regex operation of this check draws on the answer's pool (shared by all its checks).
        var outcome = RegexStepPool.$current.withValue(subject.analysis.regexSteps) { evaluator.evaluate(subject) }
        if outcome.error == nil, let threshold, let score = outcome.score {
            outcome.passed = score >= threshold
            outcome.detail +=
                " (score \(DetailNumbers.score(score)) \(outcome.passed ? "≥" : "<") threshold \(DetailNumbers.score(threshold)))"
        }
        if isNegated && outcome.error == nil {
            outcome.passed.toggle()
            outcome.score = outcome.score.map { 1 - $0 }
            outcome.detail = "negated, so \(outcome.passed ? "passes" : "fails"): " + outcome.detail
        }
        return Verdict(
            check: type, passed: outcome.passed, score: outcome.score, detail: outcome.detail, error: outcome.error,
            weight: weight)
    }
}

/// The grade of one turn: every check's verdict and the weighted pass rate.
public struct TurnGrade: Sendable, Hashable, Codable {
    public var verdicts: [Verdict]
    /// Σ weight × passed / Σ weight, in 0...1; nil when there are no checks (or all weights are 0).
    public var score: Double?
    /// True when every verdict passed.
    public var passed: Bool { verdicts.allSatisfy(\.passed) }

    public init(verdicts: [Verdict], score: Double?) {
        self.verdicts = verdicts
        self.score = score
    }
}

extension Check {
    /// Grades a turn: each check's verdict, and the weighted pass rate of the checks.
    public static func grade(_ checks: [Check], _ subject: GradingSubject) -> TurnGrade {
        let verdicts = checks.map { $0.evaluate(subject) }
        return TurnGrade(verdicts: verdicts, score: Verdict.passRate(verdicts))
    }
}

/// Numbers in check details, written exactly enough to see why a check failed ("0.97", "412.3 ms",
/// "1.5 GiB"): recorded in result files, so unlike the reports' rounding (ChatEvalReport's
/// `Format`) they keep two decimals.
enum DetailNumbers {
    static func score(_ value: Double) -> String { decimal(value, places: 2) }

    static func decimal(_ value: Double, places: Int) -> String { DecimalText.rounded(value, places: places) }

    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(decimal(value * 1000, places: 1)) ms" : "\(decimal(value, places: 3)) s"
    }

    static func bytes(_ value: Double) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var v = value, unit = 0
        while v >= 1024 && unit < units.count - 1 {
            v /= 1024
            unit += 1
        }
        return "\(decimal(v, places: unit == 0 ? 0 : 2)) \(units[unit])"
    }
}
