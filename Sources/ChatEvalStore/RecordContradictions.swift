import ChatEvalCore

extension RunRecord {
    /// Every served turn's contradicting figures clamped as a run clamps them now
    /// (`TurnMetrics.clampContradictions`): a result file, git note or journal a ChatEval before
    /// that wrote from such a server is read, not refused. Readers call it before they validate.
    public mutating func clampContradictions() {
        for s in suites.indices {
            for c in suites[s].conversations.indices {
                for t in suites[s].conversations[c].turns.indices { suites[s].conversations[c].turns[t].metrics?.clampContradictions() }
            }
        }
    }
}

extension JournalEntry {
    /// The journaled turn's contradicting figures clamped (`TurnMetrics.clampContradictions`).
    public mutating func clampContradictions() { turn.metrics?.clampContradictions() }
}
