import ChatEvalCore
import ChatEvalStore

/// What one replay showed besides its timings: each check's verdict and whether each turn
/// answered. The unit a comparison's checks and turns are tested on, jointly with its metrics.
/// (Package access: the gate's calibration in ChatEvalToolKit draws them.)
package struct ReplayOutcome {
    var conversation: String
    package var checks: [QualityComparator.CheckKey: Bool] = [:]
    /// 0-based turn → answered.
    var answered: [Int: Bool] = [:]

    package init(conversation: String, checks: [QualityComparator.CheckKey: Bool] = [:], answered: [Int: Bool] = [:]) {
        self.conversation = conversation
        self.checks = checks
        self.answered = answered
    }

    init(suite: String, conversation record: ConversationRecord) {
        conversation = record.id
        for (key, verdict, _) in QualityComparator.verdicts(suite: suite, record) { checks[key] = verdict.passed }
        for turn in record.turns { answered[turn.index] = turn.status == .answered }
    }
}
