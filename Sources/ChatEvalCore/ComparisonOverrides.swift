/// Changes to comparison settings as a project file, a suite or the command line writes them;
/// unset fields keep what they override. Applied in the order preset → project file → suite →
/// command line, later ones winning.
public struct ComparisonOverrides: Codable, Sendable, Hashable {
    /// A preset to start from instead (project file and command line only).
    public var preset: String?
    public var familyErrorRate: Double?
    public var confidence: Double?
    public var minimumSamples: Int?
    public var thresholds: [Metric: ThresholdOverride]
    /// `busy_threshold`: cores, or `.infinity` for "off" (every replay compared).
    public var busyThreshold: Double?
    /// `priority`: the metrics a paired run keeps measuring while open (project file only).
    public var priority: [Metric]?

    public init(
        preset: String? = nil, familyErrorRate: Double? = nil, confidence: Double? = nil, minimumSamples: Int? = nil,
        thresholds: [Metric: ThresholdOverride] = [:], busyThreshold: Double? = nil, priority: [Metric]? = nil
    ) {
        self.priority = priority
        self.preset = preset
        self.familyErrorRate = familyErrorRate
        self.confidence = confidence
        self.minimumSamples = minimumSamples
        self.thresholds = thresholds
        self.busyThreshold = busyThreshold
    }

    public var isEmpty: Bool {
        preset == nil && familyErrorRate == nil && confidence == nil && minimumSamples == nil && thresholds.isEmpty && busyThreshold == nil
            && priority == nil
    }
}
