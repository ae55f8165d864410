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

    /// A nested verdict's score: its own, else 1 for a pass and 0 for a fail.
    static func verdictScore(_ v: Verdict) -> Double { v.score ?? (v.passed ? 1 : 0) }

    /// The nested verdicts in one line: "1. contains: pass; 2. regex: fail".
    static func summary(_ verdicts: [Verdict]) -> String {
        var text = ""
        text.reserveCapacity(verdicts.count * 24)
        for index in verdicts.indices {
            if index > 0 { text += "; " }
            text += String(index + 1)
            text += ". "
            text += verdicts[index].check
            text += verdicts[index].passed ? ": pass" : (verdicts[index].isError ? ": error" : ": fail")
        }
        return text
    }
}
