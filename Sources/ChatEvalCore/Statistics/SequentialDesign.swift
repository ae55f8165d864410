import Foundation

/// When a paired run looks at its data, and how much of the comparison's error rates each look
/// may spend — so that looking after every round and stopping as soon as everything is decided
/// keeps the false-alarm rate of the whole run at the rate a single look would have.
///
/// Looking repeatedly at a fixed-rate test inflates its errors (five looks at 5% each end
/// "significant" on identical builds about 14% of the time: Armitage, McPherson & Rowe 1969).
/// Here the comparison's false-alarm rate α is split over the planned looks with an α-spending
/// function (Lan & DeMets, Biometrika 1983) of the power family (Kim & DeMets, Biometrics 1987):
/// by look k, with n_k of at most N repetitions per side, α·(n_k/N)^ρ is spent. Look k decides at
/// α_k = α·((n_k/N)^ρ − (n_{k−1}/N)^ρ), and since the α_k add up to α, the chance that identical
/// builds end any look with a regression is at most α by the union bound, whatever the looks'
/// dependence, the stopping rule or the test (rank tests and Fisher's test alike, exact at any
/// sample size). Classical group-sequential boundaries recover some of what the union bound gives
/// away through the normal approximation of the looks' joint distribution; that approximation
/// fails exactly where this tool lives (a few repetitions, discrete tests), so it is not used.
///
/// The "unchanged" and "not worse" decisions (the interval, or its worse end, lies within the
/// threshold) spend the intervals' non-coverage over the looks the same way
/// (`intervalSpendingExponent`), so that a claim of equivalence holds over the looks as a fixed
/// design's would; those stops cannot raise the false-alarm rate, only cost repetitions.
///
/// A run that stops because its time budget is spent takes its last look with everything not yet
/// spent. The budget depends only on how long replays took — the same whichever side a replay
/// belongs to — so that look keeps its rate.
public struct SequentialDesign: Sendable, Hashable, Codable {
    /// Repetitions per side at which the run looks, ascending; the last is the most it will run.
    public var looks: [Int]
    /// ρ of the spending function α·t^ρ; 1 spends evenly (stops early more often), 3 keeps most
    /// of α for the last look (O'Brien-Fleming-like).
    public var spendingExponent: Double
    /// ρ of the spending of the intervals' non-coverage (which decides "unchanged"); nil spends
    /// none: every look's interval has the full confidence.
    public var intervalSpendingExponent: Double?

    public init(
        looks: [Int], spendingExponent: Double = SequentialDesign.defaultSpendingExponent,
        intervalSpendingExponent: Double? = SequentialDesign.defaultIntervalSpendingExponent
    ) {
        self.looks = Array(Set(looks.filter { $0 >= 1 })).sorted()
        self.spendingExponent = spendingExponent
        self.intervalSpendingExponent = intervalSpendingExponent
    }

    /// The intervals' non-coverage is spent like α (exponent 2). With each look's interval at the
    /// full 95%, a change exactly at the threshold was said "unchanged" or "not worse" at some
    /// look up to 5.0% of the time (eight one-turn conversations in rounds), against 2.5% for a
    /// fixed design; spent, 0.8–1.8% (`GateCalibration`, 500 seeded comparisons a shape, shared
    /// variance 0.55, 2026-11-26). The cost: identical builds of eight questions settle at a
    /// median 21 repetitions per side instead of 15; power against a 10% slowdown is unchanged.
    public static let defaultIntervalSpendingExponent: Double? = 2.0

    /// The spending exponent the gate uses (chosen by `GateCalibration`: see the README's figures).
    public static let defaultSpendingExponent = 2.0

    /// A single look at `repetitions`: a fixed design, spending everything at once.
    public static func fixed(_ repetitions: Int) -> SequentialDesign { SequentialDesign(looks: [max(1, repetitions)]) }

    /// Looks at about every 1.4× more repetitions, from `first` up to `maximum`: 2, 3, 4, 6, 8,
    /// 11, 15, 21, 29, ... A single conversation's replays can reach a family's level only from
    /// about 10 per side (the exact rank test's smallest p-value is 2/C(2n, n)), so the looks must
    /// be dense there; early ones cost almost nothing of α with the spending function's exponent.
    public static func rounds(first: Int = 2, maximum: Int) -> SequentialDesign {
        var looks: [Int] = []
        var next = max(1, min(first, maximum))
        // A look just short of the last one spends α for almost nothing: the last one absorbs it.
        while next < maximum && Double(next) * 1.15 < Double(maximum) {
            looks.append(next)
            next = max(next + 1, Int((Double(next) * 1.4).rounded()))
        }
        looks.append(max(1, maximum))
        return SequentialDesign(looks: looks)
    }

    public var maximum: Int { looks.last ?? 1 }
    public var isSequential: Bool { looks.count > 1 }

    /// Share of the error rates spent at look `index` (0-based); `final` spends everything left
    /// (the last planned look, or an earlier one when the budget ends the run).
    public func share(atLook index: Int, final: Bool = false) -> Double {
        guard looks.indices.contains(index) else { return 0 }
        let spentBefore = index == 0 ? 0 : spent(through: index - 1)
        return (final || index == looks.count - 1 ? 1 : spent(through: index)) - spentBefore
    }

    /// Cumulative share spent by the end of look `index`.
    public func spent(through index: Int, exponent: Double? = nil) -> Double {
        guard looks.indices.contains(index) else { return index < 0 ? 0 : 1 }
        if index == looks.count - 1 { return 1 }
        return pow(Double(looks[index]) / Double(maximum), exponent ?? spendingExponent)
    }

    /// Share of the intervals' non-coverage spent at look `index` (1 when none is spent).
    public func intervalShare(atLook index: Int, final: Bool = false) -> Double {
        guard let exponent = intervalSpendingExponent, looks.indices.contains(index) else { return 1 }
        let before = index == 0 ? 0 : spent(through: index - 1, exponent: exponent)
        return (final || index == looks.count - 1 ? 1 : spent(through: index, exponent: exponent)) - before
    }
}
