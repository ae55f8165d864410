import ChatEvalCore
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// What one side of a run replays: a runtime and a plan, recorded into its own record and file.
public struct RunArm: Sendable {
    /// "base" or "head" in a paired run, for progress lines; nil in an ordinary run.
    public var label: String?
    public var runtime: any ChatRuntime
    public var plan: RunPlan

    public init(label: String? = nil, runtime: any ChatRuntime, plan: RunPlan) {
        self.label = label
        self.runtime = runtime
        self.plan = plan
    }
}
