/// Holm–Bonferroni adjustment: p-values of a family of tests made comparable with one family-wise
/// error rate. Rejecting every test whose adjusted p-value is at most α keeps the chance of any
/// false rejection in the whole family at most α, whatever the dependence between the tests —
/// which is what lets a comparison of eight metrics over five suites false-alarm as rarely as a
/// single test would.
public enum Holm {
    /// The adjusted p-values, in the order given: sorted ascending, the k-th smallest (from 0) is
    /// multiplied by (count − k), made non-decreasing, and capped at 1.
    public static func adjust(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = [Double](repeating: 1, count: pValues.count)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(pValues.count - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
