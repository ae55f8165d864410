/// `contains` family: substring search; `all` needs every needle, `any` one of them.
struct ContainsCheck: CheckEvaluator {
    enum Mode: Sendable { case all, any }
    let needles: [String]
    let mode: Mode
    let caseInsensitive: Bool
    private let searches: [ScalarSearch]
    /// Each needle quoted as details show it, and what a failing verdict says it expected:
    /// written once, when the check is built.
    private let quoted: [String]
    private let expectation: String

    init(needles: [String], mode: Mode, caseInsensitive: Bool) {
        self.needles = needles
        self.mode = mode
        self.caseInsensitive = caseInsensitive
        searches = needles.map { ScalarSearch(caseInsensitive ? $0.scalars.simpleLowercased : $0.scalars) }
        let quoted = needles.map { "\"\(Excerpt.clip($0, to: 40))\"" }
        self.quoted = quoted
        let list = quoted.joined(separator: ", ")
        expectation =
            (mode == .all ? "expected \(list) in the answer; not found" : "expected one of \(list) in the answer; none found")
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
        if let (needle, at) = first, mode == .any || missing.isEmpty {
            let range = at..<(at + searches[needle].needle.count)
            let others = foundCount > 1 ? " (and \(foundCount - 1) more)" : ""
            return .pass("found \(quoted[needle])\(others): \(Excerpt.around(subject.analysis.scalars, range))")
        }
        // `all` names the needles missing; the expectation written once names them all.
        let what =
            mode == .all && missing.count < needles.count
            ? "expected \(missing.map { quoted[$0] }.joined(separator: ", ")) in the answer; not found"
                + (caseInsensitive ? " (ignoring case)" : "") : expectation
        return .fail("\(what). Answer: \(subject.analysis.quotedHead)")
    }
}
