import ChatEvalCore

/// Checks made of checks.
///
/// - `all` (`checks`: list of check maps): passes when every sub-check passes; score = weighted
///   mean of the sub-checks' scores (a sub-check without a score counts 1 when it passed, 0 otherwise).
/// - `any` (`checks`): passes when at least one passes; score = the best sub-score.
/// - `not` (`check`: one check map): the sub-check's verdict inverted (like the `not-` prefix).
///
/// Sub-checks are maps with a `type` key and that type's arguments (including their own `weight`).
/// An evaluation error in a sub-check fails `all`, is skipped by `any` unless all sub-checks
/// error, and is never inverted by `not`.
enum Combinators {
    static let factories: [CheckFactory] = [
        CheckFactory(
            "all", .combinator, "Every nested check passes; score = weighted mean of their scores.",
            arguments: [ArgumentInfo("checks", "list of checks", required: true, "Nested checks (maps with a type).")],
            hasScore: true
        ) { r throws(CheckDefinitionError) in
            AllCheck(checks: try nestedList(r))
        },
        CheckFactory(
            "any", .combinator, "At least one nested check passes; score = their best score.",
            arguments: [ArgumentInfo("checks", "list of checks", required: true, "Nested checks (maps with a type).")],
            hasScore: true
        ) { r throws(CheckDefinitionError) in
            AnyCheck(checks: try nestedList(r))
        },
        CheckFactory(
            "not", .combinator, "The nested check fails.",
            arguments: [ArgumentInfo("check", "check", required: true, "The nested check (a map with a type).")]
        ) { r throws(CheckDefinitionError) in
            let check = try CheckCatalogue.build(
                definition: try r.value("check"), path: r.path + [.key("check")],
                validatingTemplates: r.validatingTemplates, checkType: r.checkType)
            return NotCheck(check: check)
        },
    ]

    private static func nestedList(_ r: ArgumentReader) throws(CheckDefinitionError) -> [Check] {
        let value = try r.value("checks")
        guard case .list(let items) = value else {
            throw r.error(.wrongType, "checks", "is \(value.kindName)", expected: "a list of checks")
        }
        guard !items.isEmpty else { throw r.error(.invalidValue, "checks", "is an empty list", expected: "at least one check") }
        var checks: [Check] = []
        for (index, item) in items.enumerated() {
            checks.append(
                try CheckCatalogue.build(
                    definition: item, path: r.path + [.key("checks"), .index(index)],
                    validatingTemplates: r.validatingTemplates, checkType: r.checkType))
        }
        return checks
    }
}

private func verdictScore(_ v: Verdict) -> Double { v.score ?? (v.passed ? 1 : 0) }

private func summary(_ verdicts: [Verdict]) -> String {
    verdicts.enumerated().map {
        "\($0.offset + 1). \($0.element.check): \($0.element.passed ? "pass" : ($0.element.isError ? "error" : "fail"))"
    }
    .joined(separator: "; ")
}

struct AllCheck: CheckEvaluator {
    let checks: [Check]

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let verdicts = checks.map { $0.evaluate(subject) }
        let total = checks.reduce(0) { $0 + $1.weight }
        let score = total > 0 ? zip(checks, verdicts).reduce(0) { $0 + $1.0.weight * verdictScore($1.1) } / total : nil
        if let failed = verdicts.first(where: { !$0.passed }) {
            let count = verdicts.filter { !$0.passed }.count
            return .fail("\(count) of \(verdicts.count) nested checks failed; first, \(failed.check): \(failed.detail)", score: score)
        }
        return .pass("all \(verdicts.count) nested checks passed (\(summary(verdicts)))", score: score)
    }
}

struct AnyCheck: CheckEvaluator {
    let checks: [Check]

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let verdicts = checks.map { $0.evaluate(subject) }
        let score = verdicts.map(verdictScore).max()
        if let passed = verdicts.first(where: \.passed) {
            return .pass("\(passed.check) passed: \(passed.detail)", score: score)
        }
        if verdicts.allSatisfy(\.isError), let first = verdicts.first {
            return .failure(error: first.error ?? "error", "every nested check failed to evaluate; first: \(first.detail)")
        }
        return .fail("none of \(verdicts.count) nested checks passed (\(summary(verdicts)))", score: score)
    }
}

struct NotCheck: CheckEvaluator {
    let check: Check

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let verdict = check.evaluate(subject)
        if let error = verdict.error {
            return .failure(error: error, "nested \(verdict.check) could not be evaluated: \(verdict.detail)")
        }
        return Outcome(
            passed: !verdict.passed, score: verdict.score.map { 1 - $0 },
            detail: "nested \(verdict.check) \(verdict.passed ? "passed" : "failed"): \(verdict.detail)")
    }
}
