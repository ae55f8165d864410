import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore

/// How much of a run the terminal report shows.
public struct RunReportOptions: Sendable {
    /// Per-turn tables and every check, passing ones too.
    public var verbose: Bool
    /// Whole answers and user messages (default: one-line excerpts).
    public var showAnswers: Bool
    /// Each turn's rendered prompt, where the run kept it (`run --print-prompt`).
    public var showPrompts: Bool

    public init(verbose: Bool = false, showAnswers: Bool = false, showPrompts: Bool = false) {
        self.verbose = verbose
        self.showAnswers = showAnswers
        self.showPrompts = showPrompts
    }
}
