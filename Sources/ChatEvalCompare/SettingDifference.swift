import ChatEvalCore

/// A setting, build or machine property that differs between the sides.
public struct SettingDifference: Codable, Sendable, Hashable {
    /// "machine", "engine build", "model sha256", "chat template", "context size", ...
    public var field: String
    public var base: String
    public var head: String
    /// True when both sides took the value from their commit's project file: the commit changed
    /// it on purpose, and comparing it is the point.
    public var isCommitDetermined: Bool
}
