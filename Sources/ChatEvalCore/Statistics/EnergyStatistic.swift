import Foundation

/// The energy statistic Q(τ) of every split of a sequence of values (exponent 1), computed in
/// O(n log n) per ordering of the same values.
struct EnergyStatistic {
    /// The values sorted, and each distinct value's rank (ties share one).
    private let sortedValues: [Double]

    init(_ values: [Double]) {
        sortedValues = Array(Set(values)).sorted()
    }

    /// The split with the largest Q among those leaving at least `minimumSegment` values on
    /// each side, and that Q.
    func best(of values: [Double], minimumSegment: Int) -> (Int, Double)? {
        let n = values.count
        guard n >= 2 * minimumSegment else { return nil }
        let ranks = values.map { rank(of: $0) }
        let left = prefixPairSums(values, ranks)  // left[k]: Σ|zi − zj| over pairs in values[0..<k]
        let right = prefixPairSums(values.reversed(), ranks.reversed())  // right[k]: the same over the last k values
        let total = left[n]
        var best: (Int, Double)?
        for tau in minimumSegment...(n - minimumSegment) {
            let a = Double(tau), b = Double(n - tau)
            let within = left[tau], withinRight = right[n - tau]
            let cross = total - within - withinRight
            let energy = 2 * cross / (a * b) - 2 * within / (a * (a - 1)) - 2 * withinRight / (b * (b - 1))
            let q = a * b / (a + b) * energy
            if q > (best?.1 ?? -.infinity) { best = (tau, q) }
        }
        return best
    }

    private func rank(of value: Double) -> Int {
        var low = 0, high = sortedValues.count - 1
        while low < high {
            let middle = (low + high) / 2
            if sortedValues[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// sums[k] = Σ over pairs i < j < k of |values[i] − values[j]|, for k = 0...n.
    private func prefixPairSums<V: Sequence, R: Sequence>(_ values: V, _ ranks: R) -> [Double]
    where V.Element == Double, R.Element == Int {
        var counts = Fenwick<Int>(size: sortedValues.count)
        var sums = Fenwick<Double>(size: sortedValues.count)
        var result = [0.0]
        var running = 0.0, insertedSum = 0.0, inserted = 0
        for (value, rank) in zip(values, ranks) {
            let belowCount = Double(counts.prefix(rank)), belowSum = sums.prefix(rank)
            let aboveCount = Double(inserted) - belowCount, aboveSum = insertedSum - belowSum
            running += value * belowCount - belowSum + aboveSum - value * aboveCount
            counts.add(1, at: rank)
            sums.add(value, at: rank)
            insertedSum += value
            inserted += 1
            result.append(running)
        }
        return result
    }
}

/// A Fenwick (binary indexed) tree of sums over positions 0..<size.
private struct Fenwick<Value: AdditiveArithmetic> {
    private var tree: [Value]

    init(size: Int) { tree = Array(repeating: .zero, count: size + 1) }

    mutating func add(_ value: Value, at position: Int) {
        var i = position + 1
        while i < tree.count {
            tree[i] += value
            i += i & -i
        }
    }

    /// The sum over positions 0..<position.
    func prefix(_ position: Int) -> Value {
        var i = position, total = Value.zero
        while i > 0 {
            total += tree[i]
            i -= i & -i
        }
        return total
    }
}
