import ChatEvalCompare
import ChatEvalReport
import ChatEvalRunner
import ChatEvalStore

/// How a comparison that could not decide everything ends (`--undecided`).
package enum UndecidedPolicy: String, CaseIterable, Sendable {
    case pass, fail
}
