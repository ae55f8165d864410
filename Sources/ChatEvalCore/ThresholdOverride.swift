/// One metric's threshold as an override writes it: either bound may be left as it was.
public struct ThresholdOverride: Codable, Sendable, Hashable {
    public var relative: Double?
    public var absolute: Double?

    public init(relative: Double? = nil, absolute: Double? = nil) {
        self.relative = relative
        self.absolute = absolute
    }
}
