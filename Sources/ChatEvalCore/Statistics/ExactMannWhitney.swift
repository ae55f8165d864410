import Foundation
import Synchronization

/// The exact null distribution of the Mann-Whitney count U for one tie-free stratum.
enum ExactMannWhitney {
    /// Largest n·m for which the exact distribution is computed.
    static let limit = 2_500

    private static let cache = Mutex<[Int: [Double]]>([:])

    /// Counts of each value of U for sizes n and m under the null hypothesis (Doubles hold them
    /// exactly at small sizes, and to 16 digits beyond). f(i, j, u) = f(i − 1, j, u) +
    /// f(i, j − 1, u − i): the largest of i + j values is either a base value (it beats no head
    /// value) or a head value (it beats all i base values). Computed row by row, cached per size.
    static func distribution(n: Int, m: Int) -> [Double] {
        let key = n << 32 | m
        if let known = cache.withLock({ $0[key] }) { return known }
        var previousRow = (0...m).map { _ in [1.0] }  // i = 0: U is 0
        for i in 1...max(n, 1) where n > 0 {
            var row: [[Double]] = [[1.0]]  // j = 0: U is 0
            for j in 1...max(m, 1) where m > 0 {
                var counts = [Double](repeating: 0, count: i * j + 1)
                for (u, count) in previousRow[j].enumerated() { counts[u] += count }
                for (u, count) in row[j - 1].enumerated() { counts[u + i] += count }
                row.append(counts)
            }
            previousRow = row
        }
        let result = previousRow[m]
        cache.withLock { cache in
            if cache.count >= 512 { cache.removeAll() }
            cache[key] = result
        }
        return result
    }
}
