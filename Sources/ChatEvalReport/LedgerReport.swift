import ChatEvalCompare
import ChatEvalCore
import ChatEvalStore

/// The exact work ledger in words: a run's determinism per turn, and a comparison's exact
/// changes (printed before the statistical verdicts: they need one repetition per side).
public enum LedgerReport {
    /// "ledger    12 turns over 10 repetitions: 12 exact" and the turns that vary, for a run report;
    /// `model` names the model the line is about where a run has several (one line each).
    public static func determinismLines(_ runs: [RunRecord], verbose: Bool, model: String? = nil) -> [String] {
        let side = TurnLedgers(runs)
        guard !side.entries.isEmpty else { return [] }
        let counts = side.determinismCounts
        let order: [LedgerDeterminism] = [.exact, .greedyOnce, .varies, .sampled, .sampledOnce]
        let parts = order.compactMap { kind in counts[kind].map { "\($0) \(kind.words)" } }
        var lines = [
            Format.labelled(
                "ledger    ",
                "\(model.map { "\(Terminal.safe($0)): " } ?? "")\(Format.count(side.entries.count, "turn")) over "
                    + "\(Format.count(side.repetitions, "repetition")): " + parts.joined(separator: ", "), width: RunReport.width)
        ]
        let varying = side.turns.filter { side.entries[$0]?.determinism == .varies }
        for turn in varying.prefix(verbose ? varying.count : 5) {
            guard let entry = side.entries[turn] else { continue }
            lines.append(Format.clip("          varies: \(Terminal.safe(turn.description)) — \(spread(entry))", RunReport.width))
        }
        if !verbose, varying.count > 5 { lines.append("          … and \(varying.count - 5) more (--verbose lists them all)") }
        return lines
    }

    /// The accounting invariant over `runs` (`AccountingInvariant`): one line when every later
    /// turn extends the previous prompt and answer, else the breaks, the undeclared ones named
    /// with the token where the prompt left the cache and why. Empty when no turn could be checked.
    public static func accountingLines(_ runs: [RunRecord], verbose: Bool, model: String? = nil) -> [String] {
        let invariant = AccountingInvariant(runs)
        guard invariant.checked > 0 else { return [] }
        let named = model.map { "\(Terminal.safe($0)): " } ?? ""
        guard !invariant.breaks.isEmpty else {
            return [
                Format.wrap(
                    "accounting \(named)\(Format.count(invariant.checked, "later turn")): "
                        + "each prompt extends the previous prompt and answer, token for token", width: RunReport.width,
                    hanging: "           ")
            ]
        }
        let declared = invariant.breaks.count - invariant.undeclared.count
        var lines = [
            Format.wrap(
                "accounting \(named)\(invariant.breaks.count) of \(Format.count(invariant.checked, "later turn")) do not extend the "
                    + "previous prompt and answer: \(invariant.undeclared.count) unexpected"
                    + (declared > 0 ? ", \(declared) declared by the suite (a history window, max_messages)" : ""),
                width: RunReport.width, hanging: "           ")
        ]
        let shown = verbose ? invariant.undeclared : Array(invariant.undeclared.prefix(5))
        for found in shown {
            lines.append(
                Format.wrap(
                    "  break: \(Terminal.safe("\(found.suite)/\(found.conversation)")) rep \(found.repetition) turn \(found.turn), "
                        + "token \(found.miss.position): \(found.miss.cause.explanation); "
                        + "the cache held «\(Terminal.safe(found.miss.cached))», "
                        + "sent «\(Terminal.safe(found.miss.sent))»", width: RunReport.width, hanging: "      "))
        }
        if shown.count < invariant.undeclared.count {
            lines.append("  … and \(invariant.undeclared.count - shown.count) more (--verbose lists them all)")
        }
        return lines
    }

    /// The entries that take more than one value over the repetitions, with their ranges.
    static func spread(_ entry: TurnLedgers.Entry) -> String {
        if entry.unanswered > 0 { return "\(entry.unanswered) of \(entry.unanswered + entry.ledgers.count) replays unanswered" }
        var parts: [String] = []
        for (index, named) in (entry.ledgers.first?.counts ?? []).enumerated() {
            let values = entry.ledgers.compactMap { index < $0.counts.count ? $0.counts[index].value : nil }
            if let low = values.min(), let high = values.max(), low != high { parts.append("\(named.name) \(low)–\(high)") }
        }
        if Set(entry.ledgers.compactMap(\.answerDigest)).count > 1 || !entry.answersRepeat {
            parts.append("\(Set(entry.answers).count) different answers")
        }
        if Set(entry.ledgers.map(\.stopReason)).count > 1 { parts.append("stop reasons differ") }
        return parts.isEmpty ? "entries differ" : parts.joined(separator: ", ")
    }

    /// The comparison's exact part, verdict first; empty when there is none.
    public static func comparisonLines(_ ledger: LedgerComparison?, verbose: Bool) -> [String] {
        guard let ledger, ledger.turnsCompared > 0 else { return [] }
        var lines = [
            "",
            "Exact work ledger: \(ledger.turnsExact) of \(Format.count(ledger.turnsCompared, "turn")) compared exactly "
                + "(repetitions: \(ledger.baseRepetitions) base, \(ledger.headRepetitions) head)"
                + (ledger.changes.isEmpty && ledger.checks.isEmpty ? ": no difference." : ":"),
        ]
        if let reason = ledger.notGated {
            lines.append(Format.wrap("  reported, not gated: \(Terminal.safe(reason))", width: 100, hanging: "      "))
        }
        let shown = verbose ? ledger.changes : ledger.brokenRules + ledger.changes.filter(\.regressions.isEmpty).prefix(10)
        for change in shown {
            lines.append(Format.wrap("  " + sentence(change, gated: ledger.notGated == nil), width: 100, hanging: "      "))
        }
        let hidden = ledger.changes.count - shown.count
        if hidden > 0 { lines.append("  … and \(hidden) more changed turns (--verbose lists them all)") }
        let answers = ledger.answersChanged
        if !answers.isEmpty {
            lines.append(
                "  answers changed in \(answers.count) of \(ledger.turnsExact) exact turns"
                    + (ledger.gates.answers == .gate ? " (answers: gate)" : " (reported; `ledger: {answers: gate}` fails on it)"))
            if let first = answers.first, let difference = first.answer {
                lines.append(
                    Format.wrap("    first: \(Terminal.safe(first.turn.description)) \(words(difference))", width: 100, hanging: "      "))
            }
        }
        for check in ledger.checks {
            let kind =
                ledger.notGated != nil
                ? "NOT GATED"
                : check.headPasses
                    ? "IMPROVEMENT" : check.acceptedBy.map { "ACCEPTED (\(Terminal.safe($0)) expects it)" } ?? "REGRESSION"
            lines.append(
                Format.wrap(
                    "  \(kind) \(Terminal.safe(check.turn.description)) check \(check.position + 1) \(Terminal.safe(check.check)): "
                        + "\(check.headPasses ? "failed" : "passed") on \(check.baseReplays) of \(check.baseReplays) base replays, "
                        + "\(check.headPasses ? "passes" : "fails") on \(check.headReplays) of \(check.headReplays) head — "
                        + (ledger.notGated == nil ? "exact answers on both sides, a certain change" : "exact answers on both sides")
                        + (check.answer.map { "; answer \(words($0))" } ?? ""), width: 100, hanging: "      "))
        }
        if !ledger.varying.isEmpty {
            let named = ledger.varying.prefix(3).map { "\($0.turn) (base \($0.base.words), head \($0.head.words))" }
            lines.append(
                Format.wrap(
                    "  not compared exactly, their ledger is not exact on a side: \(ledger.varying.count) — "
                        + named.joined(separator: "; ") + (ledger.varying.count > 3 ? "; …" : ""), width: 100, hanging: "      "))
        }
        lines += workLines(ledger.work)
        return lines
    }

    /// "memory/pet-name turn 3: evaluated 19 → 412 (+393), reuse efficiency 1.00 → 0.05: <cause> — REGRESSION (…)".
    static func sentence(_ change: LedgerChange, gated: Bool = true) -> String {
        var parts = change.differences.filter { $0.name != "answer digest" }.map { difference in
            "\(difference.name) \(difference.base) → \(difference.head)"
                + (difference.change.map { " (\($0 > 0 ? "+" : "")\($0))" } ?? "")
        }
        if let old = change.base.reuseEfficiency, let new = change.head.reuseEfficiency, old != new {
            parts.append("reuse efficiency \(ratio(old)) → \(ratio(new))")
        }
        if parts.isEmpty { parts.append("answer changed") }
        var text = "\(Terminal.safe(change.turn.description)): " + parts.joined(separator: ", ")
        if let cause = change.cause { text += ": \(cause)" }
        if !change.regressions.isEmpty {
            text = (gated ? "REGRESSION " : "NOT GATED ") + text + " — " + change.regressions.joined(separator: ", ")
        } else if let accepted = change.accepted, !accepted.isEmpty {
            text = "ACCEPTED " + text + " — " + accepted.joined(separator: ", ") + " (a head commit's \(Expectation.trailerKey) expects it)"
        }
        return text
    }

    /// "at character 14: «…the capital is» base «Paris.» head «Lyon.»".
    static func words(_ difference: TextDivergence) -> String {
        "differs at character \(difference.offset): «…\(Terminal.safe(difference.before))» base «\(Terminal.safe(difference.first))» "
            + "head «\(Terminal.safe(difference.second))»"
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }

    /// Work and time per unit of work, per suite.
    static func workLines(_ work: [SuiteWork]) -> [String] {
        guard !work.isEmpty else { return [] }
        var lines = ["  Work and time apart (more work is the input's doing; slower work the engine's or the machine's):"]
        for suite in work {
            func change(_ old: Int, _ new: Int) -> String {
                old == new ? "\(new)" : "\(old) → \(new) (\(new > old ? "+" : "")\(new - old))"
            }
            func perToken(_ old: Double?, _ new: Double?) -> String {
                guard let old, let new else { return "–" }
                let percent = old > 0 ? String(format: " (%+.0f%%)", (new / old - 1) * 100) : ""
                return String(format: "%.2f → %.2f ms", old * 1000, new * 1000) + percent
            }
            lines.append(
                Format.wrap(
                    "    \(Terminal.safe(suite.suite)): evaluated \(change(suite.baseEvaluated, suite.headEvaluated)), "
                        + "generated \(change(suite.baseGenerated, suite.headGenerated)); "
                        + "prefill per evaluated token \(perToken(suite.basePrefillPerToken, suite.headPrefillPerToken)), "
                        + "decode per generated token \(perToken(suite.baseDecodePerToken, suite.headDecodePerToken))",
                    width: 100, hanging: "      "))
        }
        return lines
    }
}
