import ChatEvalCore
import ChatEvalStore

/// Which look of a design a comparison decides at, and the share of the error rates it spends
/// (`ComparisonDesign` records both).
public struct ComparisonLook: Sendable, Hashable {
    /// 0-based look of `design`.
    public var index: Int
    public var design: SequentialDesign
    /// Of the comparison's false-alarm rate and interval non-coverage: `design.share(atLook:)`,
    /// or what is left when a run's time budget ends it early.
    public var share: Double
    /// Of the intervals' non-coverage (which decides "unchanged"); `share` when not given.
    public var intervalShare: Double

    public init(index: Int, design: SequentialDesign, share: Double, intervalShare: Double? = nil) {
        self.index = index
        self.design = design
        self.share = share
        self.intervalShare = intervalShare ?? share
    }

    /// Look `index` of `design`, spending its planned shares (everything left when `final`).
    public init(index: Int, of design: SequentialDesign, final: Bool = false) {
        self.init(
            index: index, design: design, share: design.share(atLook: index, final: final),
            intervalShare: design.intervalShare(atLook: index, final: final))
    }

    /// A single look spending everything: a plain comparison of recorded runs.
    public static let single = ComparisonLook(index: 0, design: .fixed(1), share: 1)

    /// The look a paired run recorded in both its records, when `base` and `head` are that pair:
    /// comparing them again decides as the run did. A plain comparison otherwise.
    public static func recorded(base: [RunRecord], head: [RunRecord]) -> ComparisonLook {
        guard ComparedRuns.onePairedJob(base: base, head: head), let look = head[0].decidedLook, base[0].decidedLook == look,
            look.looks.indices.contains(look.look - 1)
        else { return .single }
        return ComparisonLook(
            index: look.look - 1, design: SequentialDesign(looks: look.looks), share: look.share, intervalShare: look.intervalShare)
    }

    /// Look `index` of `design` when a time budget ends the rounds there: it spends all the error
    /// rate (and interval share) that the looks through `spentThrough` left.
    public static func spendingTheRest(of design: SequentialDesign, index: Int, after spentThrough: Int) -> ComparisonLook {
        ComparisonLook(
            index: index, design: design, share: 1 - design.spent(through: spentThrough),
            intervalShare: design.intervalSpendingExponent == nil
                ? 1
                : 1 - design.spent(through: spentThrough, exponent: design.intervalSpendingExponent))
    }
}
