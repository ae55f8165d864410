import ChatEvalCore

/// The look a comparison was decided at. A plain comparison is a single look spending everything
/// (`look == looks.count == 1`, `share == 1`).
public struct ComparisonDesign: Codable, Sendable, Hashable {
    /// 1-based look, of `looks.count` planned.
    public var look: Int
    /// Repetitions per side at each planned look.
    public var looks: [Int]
    /// Share of the comparison's error rates this look spent.
    public var share: Double
    /// The false-alarm rate this look decided at (the comparison's × share), over the family.
    public var familyErrorRate: Double
    /// The level of this look's intervals, which decide "unchanged".
    public var confidence: Double

    public init(look: Int, looks: [Int], share: Double, familyErrorRate: Double, confidence: Double) {
        self.look = look
        self.looks = looks
        self.share = share
        self.familyErrorRate = familyErrorRate
        self.confidence = confidence
    }

    /// One look spending everything: what `compare` of two recorded runs does.
    public static func single(_ settings: ComparisonSettings, repetitions: Int) -> ComparisonDesign {
        ComparisonDesign(
            look: 1, looks: [repetitions], share: 1, familyErrorRate: settings.familyErrorRate, confidence: settings.confidence)
    }

    public var isSequential: Bool { looks.count > 1 }
}
