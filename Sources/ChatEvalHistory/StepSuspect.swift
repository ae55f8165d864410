import ChatEvalCore
import ChatEvalStore
import Foundation

/// A commit in a step's range and what it changed of the runs' inputs.
public struct StepSuspect: Codable, Sendable, Hashable {
    public var commit: String
    /// The input files it changed, relative to the repository root; empty when it changed none.
    public var changedInputs: [String]

    public init(commit: String, changedInputs: [String]) {
        self.commit = commit
        self.changedInputs = changedInputs
    }
}
