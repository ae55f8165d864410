import ChatEvalCore

/// Describes one check type, for documentation and JSON Schema generation.
public struct CheckTypeInfo: Sendable, Hashable {
    public enum Family: String, Sendable, Hashable, CaseIterable {
        case text, json, ifeval, performance, combinator
    }

    public let name: String
    public let family: Family
    /// One line: what passes.
    public let summary: String
    /// The type's own arguments (the common `weight`, and `threshold` where `hasScore`, come on top).
    public let arguments: [ArgumentInfo]
    /// True when verdicts carry a score, so the common `threshold` argument applies.
    public let hasScore: Bool
}
