/// `contains` family: substring search; `all` needs every needle, `any` one of them.
struct ContainsCheck: CheckEvaluator {
    enum Mode: Sendable { case all, any }
    let needles: [String]
    let mode: Mode
    let caseInsensitive: Bool
    private let searches: [ScalarSearch]

    init(needles: [String], mode: Mode, caseInsensitive: Bool) {
        self.needles = needles
        self.mode = mode
        self.caseInsensitive = caseInsensitive
        searches = needles.map { ScalarSearch(caseInsensitive ? $0.scalars.simpleLowercased : $0.scalars) }
    }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let haystack = caseInsensitive ? subject.analysis.simpleLowered : subject.analysis.scalars
        var found: [(String, Int)] = []
        var missing: [String] = []
        for (needle, search) in zip(needles, searches) {
            if let at = search.firstIndex(in: haystack) {
                found.append((needle, at))
                if mode == .any { break }
            } else {
                missing.append(needle)
            }
        }
        let quoted = { (s: String) in "\"\(Excerpt.clip(s, to: 40))\"" }
        let scalars = subject.analysis.scalars
        switch mode {
        case .all where missing.isEmpty, .any where !found.isEmpty:
            let (needle, at) = found[0]
            let range = at..<(at + searches[needles.firstIndex(of: needle) ?? 0].needle.count)
            let others = found.count > 1 ? " (and \(found.count - 1) more)" : ""
            return .pass("found \(quoted(needle))\(others): \(Excerpt.around(scalars, range))")
        default:
            let list = (mode == .all ? missing : needles).map(quoted).joined(separator: ", ")
            let what = mode == .all ? "expected \(list) in the answer; not found" : "expected one of \(list) in the answer; none found"
            return .fail("\(what)\(caseInsensitive ? " (ignoring case)" : ""). Answer: \(subject.analysis.quotedHead)")
        }
    }
}
