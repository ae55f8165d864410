import Foundation
import Synchronization

/// The exact permutation distribution of a stratified rank statistic Σ k_s · S_s, on an integer
/// support (S_s is U_s for the tie-free distribution, 2·U_s with ties, whose U is a half-integer).
/// Built by convolving each stratum's distribution; nil when it would be too large to enumerate
/// quickly, in which case the caller uses the normal approximation.
struct NullDistribution {
    /// probabilities[x] = P(statistic = x), x = 0...
    let probabilities: [Double]

    /// Most support points, and most multiply-adds of a convolution, worth enumerating.
    static let supportLimit = 60_000
    static let workLimit = 30_000_000

    private static let untiedCache = Mutex<[[Int]: NullDistribution?]>([:])

    /// The tie-free distribution of Σ k_s U_s for strata of these sizes (cached per shape).
    static func untied(sizes: [StratumSize], weights: [Int]) -> NullDistribution? {
        // Beyond this many pairs in a stratum the normal approximation is accurate, and the
        // exact table (about (n·m)²/4 additions) would cost more than it tells.
        guard sizes.allSatisfy({ $0.base * $0.head <= ExactMannWhitney.limit }),
            zip(sizes, weights).reduce(1, { $0 + $1.1 * $1.0.base * $1.0.head }) <= supportLimit
        else { return nil }
        let key = zip(sizes, weights).flatMap { [$0.base, $0.head, $1] }
        if let known = untiedCache.withLock({ $0[key] }) { return known }
        let parts = zip(sizes, weights).map { size, weight in
            (weight: weight, probabilities: normalized(ExactMannWhitney.distribution(n: size.base, m: size.head)))
        }
        let result = convolve(parts)
        untiedCache.withLock { cache in
            if cache.count >= 512 { cache.removeAll() }  // history's many segment sizes: bounded memory
            cache[key] = result
        }
        return result
    }

    /// The distribution of Σ k_s · 2U_s given these values (their ties kept): each stratum's
    /// head-side midrank sums over every split of its values, counted by dynamic programming.
    static func tied(strata: [(base: [Double], head: [Double])], weights: [Int]) -> NullDistribution? {
        var parts: [(weight: Int, probabilities: [Double])] = []
        var support = 1
        for (stratum, weight) in zip(strata, weights) {
            let values = stratum.base + stratum.head
            let n = stratum.base.count, m = stratum.head.count, total = n + m
            support += weight * 2 * n * m
            // Work of the subset-sum table: items × subset size × doubled rank sums.
            guard support <= supportLimit, total * m * total * (total + 1) <= workLimit else { return nil }
            let ranks = doubledMidranks(values)
            // counts[j][s]: ways to pick j values whose doubled midranks sum to s.
            let maxSum = ranks.reduce(0, +)
            var counts = [[Double]](repeating: [Double](repeating: 0, count: maxSum + 1), count: m + 1)
            counts[0][0] = 1
            var reached = 0
            for rank in ranks {
                reached += rank
                for j in stride(from: m, through: 1, by: -1) {
                    let previous = counts[j - 1]
                    var row = counts[j]
                    for s in stride(from: min(reached, maxSum), through: rank, by: -1) where previous[s - rank] != 0 {
                        row[s] += previous[s - rank]
                    }
                    counts[j] = row
                }
            }
            // 2U = 2R − m(m + 1), with R the head-side rank sum (doubled ranks sum to 2R).
            let offset = m * (m + 1)
            var distribution = [Double](repeating: 0, count: 2 * n * m + 1)
            for (sum, count) in counts[m].enumerated() where count > 0 {
                let u2 = sum - offset
                if u2 >= 0 && u2 < distribution.count { distribution[u2] += count }
            }
            parts.append((weight, normalized(distribution)))
        }
        return convolve(parts)
    }

    /// Midranks of `values` (1-based), doubled so that they are integers.
    static func doubledMidranks(_ values: [Double]) -> [Int] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Int](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let doubled = (start + 1) + (end + 1)  // 2 × the mean of ranks start+1...end+1
            for position in start...end { ranks[order[position]] = doubled }
            start = end + 1
        }
        return ranks
    }

    private static func normalized(_ counts: [Double]) -> [Double] {
        let total = counts.reduce(0, +)
        return counts.map { $0 / total }
    }

    /// Σ weight · X over independent parts, each X on 0..<probabilities.count.
    private static func convolve(_ parts: [(weight: Int, probabilities: [Double])]) -> NullDistribution? {
        let support = parts.reduce(1) { $0 + $1.weight * ($1.probabilities.count - 1) }
        guard support <= supportLimit else { return nil }
        var work = 0
        var result: [Double] = [1]
        for part in parts {
            work += result.count * part.probabilities.count
            guard work <= workLimit else { return nil }
            var next = [Double](repeating: 0, count: result.count + part.weight * (part.probabilities.count - 1))
            for (x, p) in result.enumerated() where p > 0 {
                for (y, q) in part.probabilities.enumerated() where q > 0 {
                    next[x + part.weight * y] += p * q
                }
            }
            result = next
        }
        return NullDistribution(probabilities: result)
    }

    /// The same distribution on a support twice as fine (a tie-free statistic stated as 2·U).
    func doubled() -> NullDistribution {
        var result = [Double](repeating: 0, count: 2 * (probabilities.count - 1) + 1)
        for (x, p) in probabilities.enumerated() { result[2 * x] = p }
        return NullDistribution(probabilities: result)
    }

    /// P(|X − mean| ≥ |observed − mean|).
    func twoSidedPValue(observed: Int, mean: Int) -> Double {
        let distance = abs(observed - mean)
        var total = 0.0
        for (x, p) in probabilities.enumerated() where abs(x - mean) >= distance { total += p }
        return min(1, total)
    }

    /// The two-sided p-value of the most extreme value the statistic can take.
    func minimumTwoSidedPValue(mean: Int) -> Double {
        let distance = probabilities.indices.filter { probabilities[$0] > 0 }.map { abs($0 - mean) }.max() ?? 0
        return twoSidedPValue(observed: mean + distance, mean: mean)
    }

    /// The largest c ≥ 1 with P(X < c) ≤ tail (the Moses interval's order statistic), or nil when
    /// even P(X < 1) exceeds it: the interval is then unbounded.
    func largestLowerCritical(tail: Double) -> Int? {
        var cumulative = 0.0
        var c = 0
        while c < probabilities.count, cumulative + probabilities[c] <= tail * (1 + 1e-9) {
            cumulative += probabilities[c]
            c += 1
        }
        return c >= 1 ? c : nil
    }
}
