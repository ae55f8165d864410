import ChatEvalCore
import ChatEvalStore
import Foundation

/// A suite's verdict in one line, the way faster-cpython's HPT report gives one for a whole
/// benchmark suite ("95% likely to be 1.08× slower"): how likely the head is slower, and the
/// factor it is slower (or faster) by at least, at 95%.
///
/// Hierarchical Performance Testing (Chen et al., HPCA 2012): first each conversation on its
/// own — a rank test of its replays (the exact Mann-Whitney test of the per-replay values
/// `compare` tests, two-sided at `conversationLevel`); a conversation whose test is not
/// significant counts as a **tie**, whatever its medians say, and a significant one by its
/// Hodges-Lehmann shift (a log ratio). Then across conversations, a Wilcoxon signed-rank test of
/// those shifts: the ties take the smallest ranks, half to each side, as in HPT. The probability
/// printed is the signed-rank statistic's mid-distribution function under "no change" — the
/// exact null distribution of its random signs, given which conversations tied (HPT's is the
/// normal approximation of the same): 50% when every conversation ties, and ≥ 95% only when
/// enough conversations are significantly slower and few faster. The factor at 95% is the
/// largest r for which head's values divided by r are still 95% likely slower (found by
/// bisection, as HPT's `maxspeedup` searches it).
///
/// It is a summary, never a gate: the verdicts per metric (`RunComparator`) decide. It answers
/// the question a person asks first of a whole suite, with the conversations as the units — a
/// suite of many conversations can be 99% likely slower where no single one is decided, and a
/// single conversation can never make it more than 75% likely.
public struct HPTVerdict: Codable, Sendable, Hashable {
    /// The suite; nil for the whole comparison (every suite's conversations together).
    public var suite: String?
    /// The metric compared (a time: TTFT unless the settings' priority names another).
    public var metric: Metric
    /// Conversations measured on both sides.
    public var conversations: Int
    /// Of them, those whose rank test found head significantly slower, or faster; the rest tied.
    public var slower: Int
    public var faster: Int
    /// The probability that head is slower, 0...1.
    public var probabilitySlower: Double
    /// At 95%: head is at least this many times slower (≥ 1); nil when it is not 95% likely slower.
    public var slowerAtLeast: Double?
    /// At 95%: head is at least this many times faster (≥ 1); nil when it is not 95% likely faster.
    public var fasterAtLeast: Double?

    public var ties: Int { conversations - slower - faster }

    /// The two-sided level of each conversation's rank test: significant below it, else a tie.
    public static let conversationLevel = 0.1
    /// The level the factor is given at.
    public static let reliability = 0.95

    /// The verdict over `strata` — per conversation, the replays' values on a log scale (base,
    /// head), as `ReplaySample.strata` makes them — or nil when no conversation has values on
    /// both sides.
    public static func of(strata: [(base: [Double], head: [Double])], suite: String?, metric: Metric) -> HPTVerdict? {
        let usable = strata.filter { !$0.base.isEmpty && !$0.head.isEmpty }
        guard !usable.isEmpty else { return nil }
        let shifts = conversationShifts(usable, by: 0)
        var verdict = HPTVerdict(
            suite: suite, metric: metric, conversations: usable.count, slower: shifts.filter { $0 > 0 }.count,
            faster: shifts.filter { $0 < 0 }.count, probabilitySlower: probabilitySlower(shifts))
        if verdict.probabilitySlower >= reliability {
            verdict.slowerAtLeast = factor(usable, slower: true)
        } else if verdict.probabilitySlower <= 1 - reliability {
            verdict.fasterAtLeast = factor(usable, slower: false)
        }
        return verdict
    }

    /// Each conversation's log-ratio shift of head against base once head's values are divided
    /// by e^`logFactor`: its Hodges-Lehmann estimate where the rank test is significant, else 0 (a tie).
    static func conversationShifts(_ strata: [(base: [Double], head: [Double])], by logFactor: Double) -> [Double] {
        strata.map { stratum in
            guard let test = RankShift(strata: [(stratum.base, stratum.head.map { $0 - logFactor })]),
                test.pValue <= conversationLevel, test.estimate != 0
            else { return 0 }
            return test.estimate
        }
    }

    /// P(head slower): the signed-rank statistic of `shifts` (positive: slower) against its exact
    /// null distribution, mid-p. Ranks of |shift| with ties sharing their mean rank; the zeros
    /// (the tied conversations) take the smallest ranks and count half to each side, so they only
    /// dilute; under "no change" every non-zero shift is as likely positive as negative.
    static func probabilitySlower(_ shifts: [Double]) -> Double {
        let ranks = JointPermutation.midranks(shifts.map(abs))
        // Doubled ranks are whole numbers; the statistic is the sum of the positive shifts' ranks.
        // A loop, not two chains of closures over tuples (1.6 s of type checking).
        var doubled: [Int] = [], observed = 0
        for (shift, rank) in zip(shifts, ranks) where shift != 0 {
            let twice = Int((rank * 2).rounded())
            doubled.append(twice)
            if shift > 0 { observed += twice }
        }
        guard !doubled.isEmpty else { return 0.5 }
        let total = doubled.reduce(0, +)
        if doubled.count > 400 {
            // Normal approximation (HPT's own), with a continuity correction of half a doubled unit.
            let mean = Double(total) / 2
            let variance = doubled.reduce(0.0) { $0 + Double($1 * $1) } / 4
            return 1 - RankShift.normalUpperTail((Double(observed) - mean) / variance.squareRoot())
        }
        // counts[s]: how many of the 2^n sign assignments give the doubled statistic s (as fractions).
        var counts = [Double](repeating: 0, count: total + 1)
        counts[0] = 1
        var reach = 0
        for rank in doubled {
            reach += rank
            // From the top down, so that counts[s − rank] is still the previous shift's.
            for s in stride(from: reach, through: 0, by: -1) { counts[s] = (counts[s] + (s >= rank ? counts[s - rank] : 0)) / 2 }
        }
        let below = counts[..<observed].reduce(0, +)
        return min(1, max(0, below + counts[observed] / 2))
    }

    /// The largest factor r (to 0.1%, at most 10) at which head divided by r (`slower`) or
    /// multiplied by r is still `reliability` likely slower (or faster): HPT's maximum speedup.
    static func factor(_ strata: [(base: [Double], head: [Double])], slower: Bool) -> Double {
        func holds(_ logFactor: Double) -> Bool {
            let probability = probabilitySlower(conversationShifts(strata, by: slower ? logFactor : -logFactor))
            return slower ? probability >= reliability : probability <= 1 - reliability
        }
        var low = 0.0, high = log(10.0)
        guard !holds(high) else { return 10 }
        while high - low > 0.0005 {
            let middle = (low + high) / 2
            if holds(middle) { low = middle } else { high = middle }
        }
        return exp(low)
    }

    /// The line a person reads first: "97% likely slower; at 95%, ≥ 1.04× slower (TTFT, 8
    /// conversations: 5 slower, 3 ties)".
    public var sentence: String {
        let percent = Int((probabilitySlower * 100).rounded(.down))
        var text: String
        if probabilitySlower >= 0.5 {
            text = "\(percent)% likely slower"
        } else {
            text = "\(100 - Int((probabilitySlower * 100).rounded(.up)))% likely faster"
        }
        if let slowerAtLeast {
            text += String(format: "; 95%% likely ≥ %.2f× slower", slowerAtLeast)
        } else if let fasterAtLeast {
            text += String(format: "; 95%% likely ≥ %.2f× faster", fasterAtLeast)
        } else {
            text += "; not 95% likely slower or faster"
        }
        let parts = [(slower, "slower"), (faster, "faster"), (ties, ties == 1 ? "tie" : "ties")].filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)" }
        return text + " (\(metric.name), \(conversations) conversation\(conversations == 1 ? "" : "s"): "
            + parts.joined(separator: ", ") + ")"
    }
}

extension HPTVerdict {
    /// The verdicts of a comparison: the whole of it (every suite's conversations together) and
    /// each suite, on the settings' first priority time metric (TTFT by default), from the replays
    /// `RunComparator` compares (screened as it screened them: those left out stay out).
    static func of(
        baseReplays: [String: [RunComparator.Replay]], headReplays: [String: [RunComparator.Replay]], settings: ComparisonSettings,
        suites: [String]
    ) -> (whole: HPTVerdict?, bySuite: [String: HPTVerdict]) {
        let metric = settings.priorityMetrics.first { $0.unit == .seconds } ?? .timeToFirstToken
        var all: [(base: [Double], head: [Double])] = []
        var bySuite: [String: HPTVerdict] = [:]
        for suite in suites {
            guard let baseSuite = baseReplays[suite], let headSuite = headReplays[suite] else { continue }
            let strata = ReplaySample.strata(
                base: baseSuite.map { $0.sample(metric) }, head: headSuite.map { $0.sample(metric) }, onLogScale: true)
            all += strata
            bySuite[suite] = of(strata: strata, suite: suite, metric: metric)
        }
        return (of(strata: all, suite: nil, metric: metric), bySuite)
    }
}

extension Comparison {
    /// Sets the HPT lines: the whole comparison's and each suite's (`HPTVerdict.of`).
    mutating func attachHPT(_ hpt: (whole: HPTVerdict?, bySuite: [String: HPTVerdict])) {
        self.hpt = hpt.whole
        for index in suites.indices { suites[index].hpt = hpt.bySuite[suites[index].name] }
    }
}
