/// The result of one check on one answer.
public struct Verdict: Codable, Sendable, Hashable {
    // Stored strings first, then the 8-byte values, then the one-byte ones: in the order they
    // were first written, padding took 28 of 128 bytes a verdict (a graded run keeps every one).
    // Records are encoded with sorted keys, so the order is not seen in files.
    /// The check's type name (`contains`, `not-regex`, `keywords:frequency`...).
    public var check: String
    /// Human-readable: what was expected, what was found, and an excerpt of the answer (≤ ~80
    /// characters, elisions marked with …).
    public var detail: String
    /// Set when the check could not be evaluated (a regex over its budget, language
    /// identification unavailable...): the verdict is then a failure that says nothing about the answer.
    public var error: String?
    /// What the check asks, as the same text on every turn that asks the same (a quote of the
    /// turn's own message reads `{{this.user}}`): how the instruction-following scores follow an
    /// instruction from turn to turn. Recorded for conversations tagged `multi-turn-if`.
    public var instruction: String?
    /// Set on a passing check of the answer that passes only because the answer repeats what the
    /// model was sent — graded again without those repeats, it fails: what was repeated ("the user
    /// message", "the system prompt"...). Absent otherwise (and in records written before it).
    public var echo: String?
    /// The check's share of its turn's score (its `weight`, default 1).
    public var weight: Double
    /// In 0...1 for checks that measure a degree (similarity, share of passed sub-checks); nil otherwise.
    public var score: Double?
    public var passed: Bool
    /// The verdict with the check's IFEval instructions read loosely (IFEval's loose accuracy);
    /// recorded for conversations tagged `multi-turn-if` when the check holds a strictly read
    /// IFEval instruction, nil otherwise (the loose reading is then `passed`).
    public var loose: Bool?
    /// True when the verdict reads the turn's timings or memory — a check on a metric that moves
    /// with the machine (`ttft`, `decode-tps`, `peak-memory`…), or a combinator holding one — so
    /// that it can flip between two replays of the same answer. Recorded for performance checks and
    /// combinators; nil for checks of the answer alone (and in records written before the field,
    /// where `readsMeasurements` falls back on the check's type).
    public var measured: Bool?

    public init(check: String, passed: Bool, score: Double? = nil, detail: String, error: String? = nil, weight: Double = 1) {
        self.check = check
        self.passed = passed
        self.score = score
        self.detail = detail
        self.error = error
        self.weight = weight
    }

    /// True when the check could not be evaluated.
    public var isError: Bool { error != nil }

    /// True when the verdict may move with the machine rather than the answer (`measured`): such a
    /// verdict is never compared exactly, only counted. Where a record does not say, the type
    /// decides, erring towards "measured": a limit on a metric that moves with the machine, and
    /// any combinator (`all`, `any`, `not`), whose nested checks the record does not keep.
    public var readsMeasurements: Bool { measured ?? Self.typeMayReadMeasurements(check) }

    /// Whether a check of type `type` (`ttft`, `not-ttft`, `all`…) may read timings or memory,
    /// judged by its name alone.
    public static func typeMayReadMeasurements(_ type: String) -> Bool {
        let base = type.hasPrefix("not-") ? String(type.dropFirst(4)) : type
        if ["all", "any", "not"].contains(base) { return true }
        return Metric(name: base)?.movesWithMachine ?? false
    }

    /// The verdict under IFEval's loose reading: `loose` where recorded, else `passed`.
    public var passedLoosely: Bool { loose ?? passed }

    /// Σ weight × passed / Σ weight over `verdicts`; nil when the weights add up to 0. Each
    /// verdict is read in place through its index: iterating copies each element, retaining its
    /// five strings (3% of grading a turn, measured). Inlinable, so that callers in other modules
    /// get it specialised: the generic entry point copied every verdict through value witnesses
    /// (6% of the grading bench's instructions, 2026-11-30).
    @inlinable
    public static func passRate<C: Collection>(_ verdicts: C) -> Double? where C.Element == Verdict {
        var total = 0.0, passed = 0.0
        for index in verdicts.indices {
            total += verdicts[index].weight
            if verdicts[index].passed { passed += verdicts[index].weight }
        }
        return total > 0 ? passed / total : nil
    }
}

extension Verdict {
    /// The type of the check that expects its turn to fail (`failure`): a failed turn whose
    /// `failure` check passed failed as the suite said it would.
    public static let failureCheckType = "failure"

    /// The conversation tag that asks for the multi-turn instruction-following scores: the
    /// grader records `loose` and `instruction`, and the reports add the scores.
    public static let instructionFollowingTag = "multi-turn-if"
}
