import ChatEvalCore

/// The look a paired run's comparison was decided at: repetitions per side at each planned look,
/// the 1-based look, and the shares of the false-alarm rate and of the intervals' non-coverage it spent.
///
/// With what the run decided with — its settings, the command line's overrides, the expectations
/// it accepted, the exact ledger's gates and the earlier looks whose regressions stand — comparing
/// the pair's two result files again (`chateval compare`) reproduces its verdict: a comparison is
/// a function of its files and settings alone. Those fields are absent in records written before
/// them (compared with the reading command's settings, as then).
public struct DecidedLook: Codable, Sendable, Hashable {
    public var looks: [Int]
    public var look: Int
    public var share: Double
    public var intervalShare: Double
    /// The preset and project file's comparison settings the run decided with (suites' own come
    /// from the head's record, as for any comparison).
    public var settings: ComparisonSettings?
    /// The command line's overrides (`--threshold`, `--alpha`, `--busy-threshold`, ...), applied last.
    public var overrides: ComparisonOverrides?
    /// The head's commits' `ChatEval-Expect` trailers the run accepted changes by, as read then.
    public var expectations: [Expectation]?
    /// Which exact ledger changes failed the run (the project file's `ledger:`).
    public var ledgerGates: LedgerGates?
    /// Earlier looks that confirmed a regression, which stands at every later look.
    public var confirmed: [ConfirmedLook]?

    public init(looks: [Int], look: Int, share: Double, intervalShare: Double) {
        self.looks = looks
        self.look = look
        self.share = share
        self.intervalShare = intervalShare
    }

    /// A look of a paired run that confirmed a regression: its 1-based index, the repetitions per
    /// side it looked at (its replays are those of repetitions up to this), and its shares.
    public struct ConfirmedLook: Codable, Sendable, Hashable {
        public var look: Int
        public var repetitions: Int
        public var share: Double
        public var intervalShare: Double

        public init(look: Int, repetitions: Int, share: Double, intervalShare: Double) {
            self.look = look
            self.repetitions = repetitions
            self.share = share
            self.intervalShare = intervalShare
        }
    }
}
