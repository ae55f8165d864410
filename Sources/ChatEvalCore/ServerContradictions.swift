extension TurnMetrics {
    /// Clamps a served turn's figures that contradict each other: a server that says it served
    /// more prompt tokens from its cache than the prompt holds gets the whole prompt as reused,
    /// its own figure kept in `server.cachedTokens` and the contradiction recorded in
    /// `server.contradictions` (once). A record holding the contradiction was refused by every
    /// reader (`report`, `compare`, `history`), so measured work was lost; a served turn is clamped
    /// when it is measured, and a record written before that when it is read. A turn without
    /// server figures (in-process) is left as it is: its runtime counted both, and a record where
    /// they disagree cannot exist (`validationProblems`).
    public mutating func clampContradictions() {
        guard var figures = server, let reused = reusedTokens, reused > promptTokens, promptTokens >= 0 else { return }
        let prompt = promptTokens > 0 ? "the \(promptTokens) tokens of the prompt" : "the prompt, whose size it did not report"
        let said =
            "the server reported \(reused) prompt tokens served from its cache, more than \(prompt): counted as \(promptTokens) reused"
        if figures.contradictions?.contains(said) != true { figures.contradictions = (figures.contradictions ?? []) + [said] }
        server = figures
        reusedTokens = promptTokens
    }
}
