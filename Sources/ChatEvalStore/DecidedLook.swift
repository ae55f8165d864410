import ChatEvalCore

/// The look a paired run's comparison was decided at: repetitions per side at each planned look,
/// the 1-based look, and the shares of the false-alarm rate and of the intervals' non-coverage it spent.
public struct DecidedLook: Codable, Sendable, Hashable {
    public var looks: [Int]
    public var look: Int
    public var share: Double
    public var intervalShare: Double

    public init(looks: [Int], look: Int, share: Double, intervalShare: Double) {
        self.looks = looks
        self.look = look
        self.share = share
        self.intervalShare = intervalShare
    }
}
