/// Fast path for patterns that are a plain string, optionally case-insensitive and optionally
/// wrapped in `\b` (IFEval keywords and forbidden words): same matches as the engines, found by
/// a direct scan.
struct LiteralMatcher: Sendable {
    /// Pattern characters (already simple-lowercased where caseless).
    let lower: [UInt32]
    /// Simple uppercase of each pattern character (for caseless comparison).
    let upper: [UInt32]
    let caseless: [Bool]
    let boundaryBefore: Bool
    let boundaryAfter: Bool

    /// The matcher for `node`, when it is a non-empty run of literals with optional `\b` at the ends.
    init?(_ node: RegexNode) {
        var items: [RegexNode]
        switch node {
        case .concat(let nodes): items = nodes
        case .literal: items = [node]
        default: return nil
        }
        var before = false, after = false
        if case .assertion(.wordBoundary)? = items.first { before = true; items.removeFirst() }
        if case .assertion(.wordBoundary)? = items.last { after = true; items.removeLast() }
        var lower: [UInt32] = [], upper: [UInt32] = [], caseless: [Bool] = []
        for item in items {
            guard case .literal(let c, let folds) = item else { return nil }
            lower.append(c.value)
            upper.append(folds ? PythonText.simpleUpper(c).value : c.value)
            caseless.append(folds)
        }
        guard !lower.isEmpty else { return nil }
        self.lower = lower
        self.upper = upper
        self.caseless = caseless
        boundaryBefore = before
        boundaryAfter = after
    }

    @inline(__always) private func matches(_ c: Unicode.Scalar, at k: Int) -> Bool {
        if c.value == lower[k] { return true }
        guard caseless[k] else { return false }
        return PythonText.simpleLower(c).value == lower[k] || PythonText.simpleUpper(c).value == upper[k]
    }

    /// The first occurrence starting at or after `start` (with its boundaries), as a range.
    func firstMatch(in text: Scalars, from start: Int) -> Range<Int>? {
        let m = lower.count, n = text.count
        guard n - start >= m else { return nil }
        let firstLower = lower[0], firstUpper = upper[0], firstCaseless = caseless[0]
        var p = start
        let last = n - m
        while p <= last {
            let c = text[p]
            let v = c.value
            let candidate = v == firstLower || (firstCaseless && (v == firstUpper || (v >= 0x80 && matches(c, at: 0))))
            if candidate {
                var k = 1
                while k < m && matches(text[p + k], at: k) { k += 1 }
                if k == m && boundaryHolds(text, p, p + m) { return p..<(p + m) }
            }
            p += 1
        }
        return nil
    }

    private func boundaryHolds(_ text: Scalars, _ start: Int, _ end: Int) -> Bool {
        func isWord(_ i: Int) -> Bool { i >= 0 && i < text.count && PythonText.isWord(text[i]) }
        if boundaryBefore && isWord(start - 1) == isWord(start) { return false }
        if boundaryAfter && isWord(end - 1) == isWord(end) { return false }
        return true
    }
}
