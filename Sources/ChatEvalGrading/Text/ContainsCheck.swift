import ChatEvalCore

/// `contains` family: substring search; `all` needs every needle, `any` one of them.
struct ContainsCheck: CheckEvaluator {
    enum Mode: Sendable { case all, any }
    let needles: [String]
    let mode: Mode
    let caseInsensitive: Bool
    private let searches: [ScalarSearch]
    /// Each needle quoted as details show it, and what a failing verdict says it expected:
    /// written once, when the check is built, and used while no secret is registered (a needle
    /// holding a secret registered later is quoted redacted, as before).
    private let builtQuotes: [String]
    private let builtExpectation: String

    init(needles: [String], mode: Mode, caseInsensitive: Bool) {
        self.needles = needles
        self.mode = mode
        self.caseInsensitive = caseInsensitive
        searches = needles.map { ScalarSearch(caseInsensitive ? $0.scalars.simpleLowercased : $0.scalars) }
        builtQuotes = needles.map(Self.quote)
        builtExpectation = Self.expectation(builtQuotes, mode: mode, caseInsensitive: caseInsensitive)
    }

    private static func quote(_ needle: String) -> String { "\"\(Excerpt.clip(needle, to: 40))\"" }

    private static func expectation(_ quotes: [String], mode: Mode, caseInsensitive: Bool) -> String {
        let list = quotes.joined(separator: ", ")
        return (mode == .all ? "expected \(list) in the answer; not found" : "expected one of \(list) in the answer; none found")
            + (caseInsensitive ? " (ignoring case)" : "")
    }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let haystack = caseInsensitive ? subject.analysis.simpleLowered : subject.analysis.scalars
        // The first needle found (its index and where), how many were, and the missing ones.
        var first: (needle: Int, at: Int)?
        var foundCount = 0
        var missing: [Int] = []
        for index in searches.indices {
            if let at = searches[index].firstIndex(in: haystack) {
                if first == nil { first = (index, at) }
                foundCount += 1
                if mode == .any { break }
            } else {
                missing.append(index)
            }
        }
        let quoted = Secrets.isEmpty ? builtQuotes : needles.map(Self.quote)
        if let (needle, at) = first, mode == .any || missing.isEmpty {
            // The length of the needle found (before 2026-11-30, of the first needle equal to it
            // as a String, which may be spelled with other code points: `é` and `e` + U+0301).
            let range = at..<(at + searches[needle].needle.count)
            let others = foundCount > 1 ? " (and \(foundCount - 1) more)" : ""
            return .pass("found \(quoted[needle])\(others): \(Excerpt.around(subject.analysis.scalars, range))")
        }
        // `all` names the needles missing (`any`, all of them).
        let what =
            mode == .all && missing.count < needles.count
            ? Self.expectation(missing.map { quoted[$0] }, mode: mode, caseInsensitive: caseInsensitive)
            : Secrets.isEmpty ? builtExpectation : Self.expectation(quoted, mode: mode, caseInsensitive: caseInsensitive)
        return .fail("\(what). Answer: \(subject.analysis.quotedHead)")
    }
}
