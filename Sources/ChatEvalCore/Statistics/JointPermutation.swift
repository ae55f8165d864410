import Foundation

/// One family of tests decided together by permuting the side labels of the units they share —
/// Westfall and Young's step-down min-P adjustment ("Resampling-Based Multiple Testing", 1993,
/// algorithm 2.8), one-sided in each direction.
///
/// The units are replays. Every metric of a replay (TTFT, total time, the rates, inter-token
/// latencies) and every check of it were measured on the same run of the same conversation, so
/// they move together: a replay that was slow is slow on all of them. A Bonferroni-type family
/// (Holm, Tarone) pays for every test as if it were an independent chance of a false alarm; with
/// twelve timing metrics that are nearly one, it pays twelve times for one chance. Relabelling
/// which replays are base and which are head — within each stratum (a conversation), jointly for
/// every test — draws the family's null distribution with the tests' real dependence in it: the
/// adjusted p-value of a test is the chance, over relabellings, that the smallest p-value among
/// the tests not yet rejected is at least as small as its own. Under "no change" the labels are
/// exchangeable within a stratum, so rejecting every adjusted p-value ≤ α keeps the chance of any
/// false rejection in the family at most α (strong control under subset pivotality, which
/// relabelling the same units for every test gives).
///
/// Each test's per-labelling p-value is a monotone summary that puts tests of different kinds
/// and sizes on one scale: for a metric, the normal tail of van Elteren's stratified rank sum
/// (`RankShift`'s statistic, with its weights and tie-corrected variance); for a check's pass
/// counts, the hypergeometric tail (Fisher's one-sided test). The permutation makes the family's
/// level exact whatever these approximations are. A test whose counts can never reach a small
/// p-value rarely holds the minimum, so it costs the others little — Tarone's screening is not
/// needed.
///
/// **Exact or sampled.** When the strata's relabellings number at most `exactLimit`, all are
/// enumerated and the adjusted p-values are exact. Otherwise `samples` relabellings are drawn
/// with a generator seeded by the caller (the same data decide the same way every time) and each
/// adjusted p-value is (count + 1)/(samples + 1), valid at any sample count. A sampled figure
/// cannot go below 1/(samples + 1); drawing stops early once every test is clearly far from any
/// level (`enough`); where no drawn relabelling reaches a test's value, Holm's
/// adjustment of the tests' own p-values (`marginal`, exact where the caller has them) decides
/// instead when it is smaller — the exact min-P adjustment never exceeds Bonferroni's.
///
/// Written here: no Swift package in reach offers resampling-based multiple testing.
public enum JointPermutation {
    /// Units whose side labels are exchangeable under "no change" (one conversation's replays).
    public struct Stratum: Sendable, Hashable {
        /// One entry per unit: true for head.
        public var isHead: [Bool]

        public init(isHead: [Bool]) { self.isHead = isHead }
    }

    /// Which direction of a metric is worse.
    public enum Worse: Sendable, Hashable {
        case larger, smaller
    }

    /// One test of the family.
    public enum Test: Sendable {
        /// A rank test stratified over `parts`: per stratum, each unit's value (nil where the unit
        /// has none; non-finite values count as none).
        case rank(parts: [Part], worse: Worse)
        /// A check's verdicts in one stratum: per unit passed, or nil where it was not graded.
        /// Fewer passes on head is worse.
        case count(stratum: Int, passed: [Bool?])
    }

    /// One stratum's values of a rank test, aligned with the stratum's units.
    public struct Part: Sendable {
        public var stratum: Int
        public var values: [Double?]

        public init(stratum: Int, values: [Double?]) {
            self.stratum = stratum
            self.values = values
        }
    }

    /// Exceedances of the smallest observed p-value after which sampling stops: the adjusted
    /// p-value is then near 20/draws, beyond any usual rate unless draws are few (at 10,000 draws
    /// a stop needs at least 20 of them reaching it, an adjusted p-value of 0.2%).
    static let enough = 20

    /// A test's one-sided p-values.
    public struct Sides: Sendable, Hashable {
        /// Of "head is not worse" (small when head is worse).
        public var worse: Double
        /// Of "head is not better".
        public var better: Double

        public init(worse: Double, better: Double) {
            self.worse = worse
            self.better = better
        }
    }

    public struct Result: Sendable {
        /// Family-adjusted one-sided p-values, aligned with the tests.
        public var adjusted: [Sides]
        /// The tests' own one-sided p-values on the observed labels (the summaries permuted).
        public var observed: [Sides]
        /// Relabellings counted (all of them when `exact`, else those drawn).
        public var labelings: Int
        public var exact: Bool
    }

    /// Adjusts `tests` over the joint relabellings of `strata`. `marginal`, when given (aligned
    /// with `tests`), holds the tests' own exact one-sided p-values for Holm's bound; where an
    /// entry is nil the test's observed value is exact already (a check's hypergeometric tail).
    public static func adjust(
        strata: [Stratum], tests: [Test], marginal given: [Sides?]? = nil, exactLimit: Int = 20_000, samples: Int = 4_000, seed: UInt64
    ) -> Result {
        var family = Family(tests.map(Compiled.init), strata: strata)
        let observed = family.pValues()
        guard !tests.isEmpty else { return Result(adjusted: [], observed: [], labelings: 0, exact: true) }
        let marginal = given.map { zip($0, observed).map { $0 ?? $1 } }

        // Only strata holding both labels can be relabelled.
        let moving = strata.indices.filter { index in
            let heads = strata[index].isHead.filter { $0 }.count
            return heads > 0 && heads < strata[index].isHead.count
        }
        let total = moving.reduce(1.0) { $0 * binomial(strata[$1].isHead.count, strata[$1].isHead.filter { $0 }.count) }
        var worse = StepDown(observed: observed.map(\.worse))
        var better = StepDown(observed: observed.map(\.better))
        let exact = total <= Double(exactLimit)
        var worseValues = [Double](repeating: 1, count: tests.count), betterValues = worseValues
        func count() {
            family.evaluate(worse: &worseValues, better: &betterValues)
            worse.count(worseValues)
            better.count(betterValues)
        }
        if exact {
            // Made once: each relabelling copies its arrangement in place.
            let choices = moving.map { combinations(of: strata[$0].isHead) }
            var odometer = [Int](repeating: 0, count: moving.count)
            while true {
                for (position, stratum) in moving.enumerated() { family.relabel(stratum, choices[position][odometer[position]]) }
                count()
                var position = 0
                while position < moving.count {
                    odometer[position] += 1
                    if odometer[position] < choices[position].count { break }
                    odometer[position] = 0
                    position += 1
                }
                if position == moving.count { break }
            }
        }
        var drawn = 0
        if !exact {
            var random = SeededRandom(seed: seed)
            while drawn < samples {
                for stratum in moving { family.shuffle(stratum, using: &random) }
                count()
                drawn += 1
                // Besag and Clifford's sequential Monte Carlo p-value (Biometrika 1991): once the
                // smallest observed p-value of each direction has been reached `enough` times, its
                // adjusted p-value is about enough/drawn — and every other test's is at least as
                // large — so more draws could only refine figures far from any decision.
                if worse.reached[0] >= Self.enough && better.reached[0] >= Self.enough { break }
            }
        }
        let labelings = exact ? Int(total) : drawn
        let worseAdjusted = worse.adjusted(labelings: labelings, exact: exact, holm: marginal.map { Holm.adjust($0.map(\.worse)) })
        let betterAdjusted = better.adjusted(labelings: labelings, exact: exact, holm: marginal.map { Holm.adjust($0.map(\.better)) })
        return Result(
            adjusted: zip(worseAdjusted, betterAdjusted).map { Sides(worse: $0, better: $1) }, observed: observed,
            labelings: labelings, exact: exact)
    }

    /// The counts of Westfall and Young's step-down algorithm for one direction.
    struct StepDown {
        /// Test indices by observed p-value, smallest first.
        let order: [Int]
        let observed: [Double]
        /// Per rank: relabellings whose successive minimum reached the observed p-value.
        var reached: [Int]

        init(observed: [Double]) {
            self.observed = observed
            order = observed.indices.sorted { (observed[$0], $0) < (observed[$1], $1) }
            reached = [Int](repeating: 0, count: observed.count)
        }

        mutating func count(_ values: [Double]) {
            var minimum = Double.infinity
            for rank in stride(from: order.count - 1, through: 0, by: -1) {
                let test = order[rank]
                minimum = min(minimum, values[test])
                // A relative tolerance: the same labelling must count as reaching itself.
                if minimum <= observed[test] * (1 + 1e-9) { reached[rank] += 1 }
            }
        }

        func adjusted(labelings: Int, exact: Bool, holm: [Double]?) -> [Double] {
            var result = [Double](repeating: 1, count: observed.count)
            var running = 0.0
            for (rank, test) in order.enumerated() {
                var value =
                    exact ? Double(reached[rank]) / Double(max(labelings, 1)) : Double(reached[rank] + 1) / Double(labelings + 1)
                if !exact, reached[rank] == 0, let holm { value = min(value, holm[test]) }
                running = max(running, min(1, value))
                result[test] = running
            }
            return result
        }
    }

    /// A test ready to be evaluated under any labelling.
    enum Compiled {
        struct RankPart {
            var stratum: Int
            var units: [Int]
            var ranks: [Double]
            /// Σ (rank − mean rank)², the tie-corrected spread of the ranks.
            var squares: Double
            var weight: Double
        }
        /// A check's graded units and their verdicts, with both tails for every (heads, head
        /// passes) a relabelling can give: the passes are fixed under relabelling, so the
        /// hypergeometric sums are taken once here, not once per relabelling.
        struct CountTest {
            var stratum: Int
            var units: [Int]
            var passed: [Bool]
            /// [heads][head passes] → one-sided p-values; empty when nothing can differ.
            var tails: [[Sides]]
        }
        case rank(parts: [RankPart], worse: Worse)
        case count(CountTest)

        init(_ test: Test) {
            switch test {
            case .rank(let given, let worse):
                let present = given.map { part in
                    (part.stratum, part.values.indices.filter { part.values[$0].map(\.isFinite) == true }, part.values)
                }
                let weights = RankShift.integerWeights(present.map(\.1.count))
                var parts: [RankPart] = []
                for ((stratum, units, values), weight) in zip(present, weights) where units.count > 1 {
                    let ranks = midranks(units.map { values[$0]! })
                    let mean = Double(units.count + 1) / 2
                    parts.append(
                        RankPart(
                            stratum: stratum, units: units, ranks: ranks,
                            squares: ranks.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }, weight: Double(weight)))
                }
                self = .rank(parts: parts, worse: worse)
            case .count(let stratum, let given):
                let units = given.indices.filter { given[$0] != nil }
                let passed = units.map { given[$0]! }
                let total = units.count, passes = passed.filter { $0 }.count
                var tails: [[Sides]] = []
                if passes > 0 && passes < total {
                    tails = (0...total).map { heads in
                        (0...min(heads, passes)).map { headPasses in
                            // Fewer head passes than `fewest` cannot occur: that slot is never read.
                            let fewest = max(0, heads - (total - passes))
                            guard heads > 0, heads < total, headPasses >= fewest else { return Sides(worse: 1, better: 1) }
                            return Sides(
                                worse: hypergeometric(
                                    total: total, successes: passes, draws: heads, range: fewest...headPasses),
                                better: hypergeometric(
                                    total: total, successes: passes, draws: heads, range: headPasses...min(heads, passes)))
                        }
                    }
                }
                self = .count(CountTest(stratum: stratum, units: units, passed: passed, tails: tails))
            }
        }
    }

    /// The family laid out for the relabelling loop, which runs once per relabelling: up to
    /// `samples` times for each comparison, thousands of comparisons in the gate's calibration.
    /// Every unit's label sits in one buffer at its stratum's offset, and the p-values go into two
    /// buffers kept across relabellings.
    ///
    /// The rank parts are laid out by stratum: each stratum that any rank test covers holds one
    /// row per unit, with a lane per rank part in that stratum — the unit's midrank in that part,
    /// and 1 where the part has the unit (0, with rank 0, where its value is missing). A
    /// relabelling adds each row times its label into every lane at once, four lanes to a SIMD
    /// operation, where the parts used to be summed one after another, each a chain of dependent
    /// additions over gathered labels (20% of the calibration tests' profile, the most of any
    /// function). Each lane still adds its units in the same order, and a missing unit adds +0
    /// to a sum that is +0 or positive, so every sum, and so every p-value, is the same to the
    /// bit: a seed decides as it did (`aSeededFamilyGivesTheFiguresItAlwaysGave`).
    struct Family {
        typealias Lanes = SIMD4<Double>

        private enum Kind {
            /// Its parts in `rankParts` (the test's own part order, which its sums keep).
            case rank(parts: Range<Int>, worse: Worse)
            /// Its units in `countUnits`, and its tails from `tailStart`, `width` per count of heads.
            case count(units: Range<Int>, tailStart: Int, width: Int)
            case none
        }
        /// A stratum's rows: `chunks` SIMD chunks per unit, from `start` in `rowRanks` and
        /// `rowPresent`; its lanes' sums from `firstChunk` in the sums buffers.
        private struct Block {
            var labelOffset: Int
            var units: Int
            var chunks: Int
            var start: Int
            var firstChunk: Int
            /// Its count of heads when every lane's part has every unit: relabelling keeps a
            /// stratum's count of heads, so such a block's counts need no sum.
            var fixedHeads: Double?
        }
        /// A rank part: its lane among all blocks' lanes, its weight, and from `terms` in
        /// `centres` and `spreads`, per count of heads (0 to its units), the terms of van
        /// Elteren's statistic that depend on that count alone, computed once here with the same
        /// operations in the same order as the relabelling loop computed them each time.
        private struct RankPart {
            var lane: Int
            var units: Int
            var weight: Double
            var terms: Int
        }
        private let kinds: [Kind]
        /// Per stratum, the offset of its first unit in `labels`.
        private let offsets: [Int]
        /// Every unit's side, 1 for head and 0 for base, stratum after stratum.
        private var labels: [UInt8]
        private let blocks: [Block]
        /// Per unit row of every block, its chunks: the unit's midrank in each lane's part (0
        /// where missing), and 1 where the lane's part has the unit.
        private let rowRanks: [Lanes], rowPresent: [Lanes]
        private let rankParts: [RankPart]
        /// Per rank part and count of heads m of its n units: m(n + 1)/2, the rank sum's mean;
        /// and w²·m·(n − m)/(n(n − 1))·Σ(rank − mean)², its weighted variance (a spread of 0
        /// where m is 0 or n: the part then adds nothing).
        private let centres: [Double], spreads: [Double]
        /// Per chunk of lanes, the relabelling's head rank sums and counts of heads (scratch,
        /// kept across relabellings so that a relabelling allocates nothing).
        private var laneSums: [Lanes], laneHeads: [Lanes]
        /// Per unit of every count test: its place in `labels`, and whether it passed.
        private let countUnits: [Int], countPassed: [Bool]
        private let tails: [Sides]

        init(_ compiled: [Compiled], strata: [Stratum]) {
            var offsets: [Int] = [], next = 0
            for stratum in strata {
                offsets.append(next)
                next += stratum.isHead.count
            }
            self.offsets = offsets
            labels = strata.flatMap { $0.isHead.map { $0 ? 1 : 0 } }

            // Each stratum's parts, in the order the tests give them: its lanes.
            var lanes = [[Compiled.RankPart]](repeating: [], count: strata.count)
            var kinds: [Kind] = [], partPlaces: [(stratum: Int, lane: Int)] = [], parts: [Compiled.RankPart] = []
            var countUnits: [Int] = [], countPassed: [Bool] = [], tails: [Sides] = []
            for test in compiled {
                switch test {
                case .rank(let testParts, let worse):
                    let first = parts.count
                    for part in testParts {
                        partPlaces.append((part.stratum, lanes[part.stratum].count))
                        lanes[part.stratum].append(part)
                        parts.append(part)
                    }
                    kinds.append(.rank(parts: first..<parts.count, worse: worse))
                case .count(let test):
                    guard !test.tails.isEmpty else {
                        kinds.append(.none)
                        continue
                    }
                    let start = countUnits.count, width = test.tails.map(\.count).max() ?? 0
                    countUnits += test.units.map { offsets[test.stratum] + $0 }
                    countPassed += test.passed
                    kinds.append(.count(units: start..<countUnits.count, tailStart: tails.count, width: width))
                    for row in test.tails { tails += row + Array(repeating: Sides(worse: 1, better: 1), count: width - row.count) }
                }
            }
            var blocks: [Block] = [], firstLane = [Int](repeating: 0, count: strata.count)
            var rowRanks: [Lanes] = [], rowPresent: [Lanes] = [], chunks = 0
            for (stratum, stratumParts) in lanes.enumerated() where !stratumParts.isEmpty {
                let units = strata[stratum].isHead.count, width = (stratumParts.count + Lanes.scalarCount - 1) / Lanes.scalarCount
                var ranks = [Lanes](repeating: .zero, count: units * width), present = ranks
                for (lane, part) in stratumParts.enumerated() {
                    for (unit, rank) in zip(part.units, part.ranks) {
                        ranks[unit * width + lane / Lanes.scalarCount][lane % Lanes.scalarCount] = rank
                        present[unit * width + lane / Lanes.scalarCount][lane % Lanes.scalarCount] = 1
                    }
                }
                firstLane[stratum] = chunks * Lanes.scalarCount
                let complete = stratumParts.allSatisfy { $0.units.count == units }
                blocks.append(
                    Block(
                        labelOffset: offsets[stratum], units: units, chunks: width, start: rowRanks.count, firstChunk: chunks,
                        fixedHeads: complete ? Double(strata[stratum].isHead.filter { $0 }.count) : nil))
                rowRanks += ranks
                rowPresent += present
                chunks += width
            }
            var rankParts: [RankPart] = [], centres: [Double] = [], spreads: [Double] = []
            for (place, part) in zip(partPlaces, parts) {
                let total = part.units.count, n = Double(total)
                rankParts.append(
                    RankPart(lane: firstLane[place.stratum] + place.lane, units: total, weight: part.weight, terms: centres.count))
                for heads in 0...total {
                    let m = Double(heads), bases = total - heads
                    centres.append(m * (n + 1) / 2)
                    spreads.append(
                        heads > 0 && bases > 0 ? part.weight * part.weight * m * Double(bases) / (n * (n - 1)) * part.squares : 0)
                }
            }
            (self.rankParts, self.centres, self.spreads) = (rankParts, centres, spreads)
            (self.kinds, self.blocks, self.rowRanks, self.rowPresent) = (kinds, blocks, rowRanks, rowPresent)
            (self.countUnits, self.countPassed, self.tails) = (countUnits, countPassed, tails)
            laneSums = [Lanes](repeating: .zero, count: chunks)
            laneHeads = laneSums
        }

        /// Gives `stratum` the labels `heads` (1 for head, 0 for base), which must hold as many heads
        /// as the stratum's own (every arrangement `combinations(of:)` gives does): a block's
        /// `fixedHeads` rests on it.
        mutating func relabel(_ stratum: Int, _ heads: [UInt8]) {
            let start = offsets[stratum]
            assert(
                heads.filter { $0 == 1 }.count == labels[start..<(start + heads.count)].filter { $0 == 1 }.count,
                "a relabelling keeps the stratum's count of heads")
            labels.withUnsafeMutableBufferPointer { labels in
                heads.withUnsafeBufferPointer { heads in
                    for index in heads.indices { labels[start &+ index] = heads[index] }
                }
            }
        }

        /// Shuffles `stratum`'s labels, drawing from `random` as shuffling its own array of Bool
        /// does (the shuffle draws by count and swaps places, whatever the elements).
        mutating func shuffle(_ stratum: Int, using random: inout SeededRandom) {
            let end = stratum + 1 < offsets.count ? offsets[stratum + 1] : labels.count
            labels[offsets[stratum]..<end].shuffle(using: &random)
        }

        /// Each test's one-sided p-values under the current labels.
        mutating func pValues() -> [Sides] {
            var worse = [Double](repeating: 1, count: kinds.count), better = worse
            evaluate(worse: &worse, better: &better)
            return zip(worse, better).map { Sides(worse: $0, better: $1) }
        }

        /// Writes each test's one-sided p-values under the current labels into `worse` and
        /// `better` (one entry per test: the caller's buffers, kept across relabellings).
        mutating func evaluate(worse: inout [Double], better: inout [Double]) {
            sumLanes()
            // The lanes read one by one: the chunks of four seen as Doubles.
            laneSums.withUnsafeBufferPointer { sumChunks in
                laneHeads.withUnsafeBufferPointer { headChunks in
                    sumChunks.withMemoryRebound(to: Double.self) { sums in
                        headChunks.withMemoryRebound(to: Double.self) { heads in
                            for (test, kind) in kinds.enumerated() {
                                let sides: Sides
                                switch kind {
                                case .rank(let parts, let direction): sides = rankPValues(parts, worse: direction, sums: sums, heads: heads)
                                case .count(let units, let tailStart, let width):
                                    var unitHeads = 0, headPasses = 0
                                    for unit in units where labels[countUnits[unit]] == 1 {
                                        unitHeads += 1
                                        if countPassed[unit] { headPasses += 1 }
                                    }
                                    sides = tails[tailStart + unitHeads * width + headPasses]
                                case .none: sides = Sides(worse: 1, better: 1)
                                }
                                worse[test] = sides.worse
                                better[test] = sides.better
                            }
                        }
                    }
                }
            }
        }

        /// Every lane's head rank sum and count of heads under the current labels: a block's rows
        /// in unit order, each added into all its lanes at once. Unchecked reads: every index was
        /// made in `init` from the strata and parts it points into.
        private mutating func sumLanes() {
            labels.withUnsafeBufferPointer { labels in
                rowRanks.withUnsafeBufferPointer { ranks in
                    rowPresent.withUnsafeBufferPointer { present in
                        laneSums.withUnsafeMutableBufferPointer { sums in
                            laneHeads.withUnsafeMutableBufferPointer { heads in
                                for block in blocks {
                                    let sum = sums.baseAddress! + block.firstChunk, count = heads.baseAddress! + block.firstChunk
                                    let chunks = block.chunks
                                    sum.update(repeating: .zero, count: chunks)
                                    var row = ranks.baseAddress! + block.start
                                    if let fixedHeads = block.fixedHeads {
                                        count.update(repeating: Lanes(repeating: fixedHeads), count: chunks)
                                        for unit in 0..<block.units {
                                            let label = Lanes(repeating: Double(labels[block.labelOffset &+ unit]))
                                            for chunk in 0..<chunks { sum[chunk] += row[chunk] * label }
                                            row += chunks
                                        }
                                        continue
                                    }
                                    count.update(repeating: .zero, count: chunks)
                                    var rowPresent = present.baseAddress! + block.start
                                    for unit in 0..<block.units {
                                        let label = Lanes(repeating: Double(labels[block.labelOffset &+ unit]))
                                        for chunk in 0..<chunks {
                                            sum[chunk] += row[chunk] * label
                                            count[chunk] += rowPresent[chunk] * label
                                        }
                                        row += chunks
                                        rowPresent += chunks
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        /// Van Elteren's statistic over `parts` as a normal tail, each direction.
        private func rankPValues(
            _ parts: Range<Int>, worse: Worse, sums: UnsafeBufferPointer<Double>, heads headCounts: UnsafeBufferPointer<Double>
        ) -> Sides {
            var numerator = 0.0, variance = 0.0
            centres.withUnsafeBufferPointer { centres in
                spreads.withUnsafeBufferPointer { spreads in
                    for part in rankParts[parts] {
                        let heads = Int(headCounts[part.lane])
                        guard heads > 0, heads < part.units else { continue }
                        numerator += part.weight * (sums[part.lane] - centres[part.terms &+ heads])
                        variance += spreads[part.terms &+ heads]
                    }
                }
            }
            guard variance > 0 else { return Sides(worse: 1, better: 1) }
            let z = numerator / variance.squareRoot()
            let larger = RankShift.normalUpperTail(z), smaller = RankShift.normalUpperTail(-z)
            return worse == .larger ? Sides(worse: larger, better: smaller) : Sides(worse: smaller, better: larger)
        }
    }

    /// P(H ∈ range) for H hypergeometric: `draws` from `total` holding `successes`.
    static func hypergeometric(total: Int, successes: Int, draws: Int, range: ClosedRange<Int>) -> Double {
        let denominator = logBinomial(total, draws)
        var sum = 0.0
        for k in range {
            sum += exp(logBinomial(successes, k) + logBinomial(total - successes, draws - k) - denominator)
        }
        return min(1, sum)
    }

    static func logBinomial(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return -.infinity }
        return lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }

    static func binomial(_ n: Int, _ k: Int) -> Double { exp(logBinomial(n, k)).rounded() }

    /// Ranks 1…n, ties sharing their mean rank.
    public static func midranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && values[order[end]] == values[order[start]] { end += 1 }
            let rank = Double(start + end + 1) / 2
            for position in start..<end { ranks[order[position]] = rank }
            start = end
        }
        return ranks
    }

    /// Every arrangement of `labels` (same count of heads), the given one included, as labels
    /// (1 for head, 0 for base).
    static func combinations(of labels: [Bool]) -> [[UInt8]] {
        let n = labels.count, k = labels.filter { $0 }.count
        var result: [[UInt8]] = []
        var chosen = Array(0..<k)
        while true {
            var arrangement = [UInt8](repeating: 0, count: n)
            for index in chosen { arrangement[index] = 1 }
            result.append(arrangement)
            var position = k - 1
            while position >= 0 && chosen[position] == n - k + position { position -= 1 }
            if position < 0 { break }
            chosen[position] += 1
            for next in (position + 1)..<k { chosen[next] = chosen[next - 1] + 1 }
        }
        return result
    }
}
