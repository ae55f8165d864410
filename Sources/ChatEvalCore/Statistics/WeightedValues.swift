import Foundation
import Synchronization

/// Values sorted ascending, each with a weight: the pairwise differences of `RankShift`.
struct WeightedValues {
    let sorted: [Double]
    let weights: [Double]

    /// The smallest value whose cumulative weight (from the bottom) exceeds `target` — the
    /// midpoint of two values when the target falls exactly between them, as the median of an
    /// even count is; `below`/`above` when the target lies outside the total weight.
    func quantile(at target: Double, below: Double? = nil, above: Double? = nil) -> Double {
        guard let first = sorted.first, let last = sorted.last else { return .nan }
        if target <= 0, let below { return below }
        let total = weights.reduce(0, +)
        if target >= total, let above { return above }
        var cumulative = 0.0
        for index in sorted.indices {
            cumulative += weights[index]
            if abs(cumulative - target) < 1e-12 * max(total, 1), index + 1 < sorted.count {
                return (sorted[index] + sorted[index + 1]) / 2
            }
            if cumulative > target { return sorted[index] }
        }
        return target <= 0 ? first : last
    }

    /// The first value, counting from the bottom (or the top), at which the cumulative weight
    /// (that value's own included) reaches `cumulativeWeight` — the k-th order statistic of the
    /// Moses interval when every weight is 1.
    func valueReaching(cumulativeWeight target: Double, fromTop: Bool) -> Double {
        var cumulative = 0.0
        let order = fromTop ? Array(sorted.indices.reversed()) : Array(sorted.indices)
        for index in order {
            cumulative += weights[index]
            if cumulative >= target - 1e-9 { return sorted[index] }
        }
        return fromTop ? -.infinity : .infinity
    }
}
