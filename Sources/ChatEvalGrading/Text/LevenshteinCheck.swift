/// `levenshtein`: edit distance (insertions, deletions, substitutions of code points) to a
/// reference; score = 1 − distance / longer length. Long texts are compared within a band of
/// `threshold` edits (exact whenever the distance is within the threshold).
struct LevenshteinCheck: CheckEvaluator {
    let reference: String
    let maxDistance: Int?
    let minSimilarity: Double?
    private let referenceScalars: Scalars

    /// Most DP cells computed for one comparison.
    static let cellBudget = 50_000_000
    /// Largest `threshold` accepted: the band arithmetic (answer length × (2 × threshold + 1))
    /// stays far from overflow with it, and no comparison within the cell budget needs more.
    static let maximumThreshold = 1_000_000_000

    init(reference: String, maxDistance: Int?, minSimilarity: Double?) {
        self.reference = reference
        self.maxDistance = maxDistance
        self.minSimilarity = minSimilarity
        referenceScalars = reference.scalars
    }

    func evaluate(_ subject: GradingSubject) -> Outcome {
        let a = subject.analysis.scalars, b = referenceScalars
        let longer = Swift.max(a.count, b.count)
        func similarity(_ d: Int) -> Double { longer == 0 ? 1 : 1 - Double(d) / Double(longer) }
        let distance: Int?
        let lowerBound: Int
        if a.count * b.count <= Self.cellBudget {
            let d = Self.distance(a, b, band: nil)
            distance = d
            lowerBound = d ?? 0
        } else if let k = maxDistance, a.count * (2 * k + 1) <= Self.cellBudget {
            distance = Self.distance(a, b, band: k)
            lowerBound = distance ?? k + 1
        } else {
            return .failure(
                error: "texts too long to compare",
                "a \(a.count)-character answer against a \(b.count)-character reference exceeds the comparison budget")
        }
        let score = similarity(distance ?? lowerBound)
        let distanceText = distance.map(String.init) ?? "more than \(lowerBound - 1)"
        var ok = true
        var rules: [String] = []
        if let k = maxDistance {
            ok = ok && (distance.map { $0 <= k } ?? false)
            rules.append("at most \(k) edits")
        }
        if let s = minSimilarity {
            ok = ok && score >= s
            rules.append("similarity ≥ \(DetailNumbers.score(s))")
        }
        return .judge(
            ok,
            "expected \(rules.joined(separator: " and ")) from \(Excerpt.head(reference, width: 40)); "
                + "distance \(distanceText), similarity \(distance == nil ? "at most " : "")\(DetailNumbers.score(score)): "
                + "\(Excerpt.head(subject.answer, width: 40))",
            score: score)
    }

    /// Levenshtein distance; with `band`, only distances ≤ band are exact and nil means "more".
    static func distance(_ a: Scalars, _ b: Scalars, band: Int?) -> Int? {
        let n = a.count, m = b.count
        if let k = band, abs(n - m) > k { return nil }
        if n == 0 { return m }
        if m == 0 { return n }
        let big = Int.max / 2
        var previous = Array(0...m)
        var current = Array(repeating: big, count: m + 1)
        for i in 1...n {
            let lo = band.map { Swift.max(1, i - $0) } ?? 1
            let hi = band.map { Swift.min(m, i + $0) } ?? m
            current[0] = i
            if lo > 1 { current[lo - 1] = big }
            var rowMin = lo == 1 ? i : big
            if lo <= hi {
                for j in lo...hi {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    let value = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    current[j] = value
                    rowMin = Swift.min(rowMin, value)
                }
            }
            if hi < m { current[hi + 1] = big }
            if let k = band, rowMin > k { return nil }
            swap(&previous, &current)
        }
        let d = previous[m]
        if let k = band, d > k { return nil }
        return d
    }
}
