import ChatEvalCore
import ChatEvalStore

/// Compares check verdicts and turn outcomes between the sides, as counts.
///
/// A check is known by its place: suite, conversation, turn (or the conversation itself) and
/// position among that turn's checks, with its type. Over the measured replays of each side it
/// passed k of n times; the two counts are tested with Fisher's exact test, in the same family
/// as the metrics (`RunComparator.decide`). A check that passes significantly less often on head
/// is a regression — 9 of 10 against 0 of 10 included, which a rule of "always passed, never
/// passes" would call merely flaky. Flaky (mixed verdicts on a side) describes a side, and is
/// what a check is called when its change is not significant. A turn's answered count is tested
/// the same way: a turn that answered on base and fails (or is skipped) on head.
///
/// (Package access for the keys, tallies and counts: the gate's calibration in ChatEvalToolKit
/// builds them for its synthetic checks.)
package enum QualityComparator {
    package struct CheckKey: Hashable, Comparable {
        var suite: String
        var conversation: String
        /// 0-based turn, or nil for a conversation-level check (sorted after the turns).
        var turn: Int?
        /// 0-based.
        var position: Int
        var check: String

        package init(suite: String, conversation: String, turn: Int?, position: Int, check: String) {
            (self.suite, self.conversation, self.turn, self.position, self.check) = (suite, conversation, turn, position, check)
        }

        package static func < (a: CheckKey, b: CheckKey) -> Bool {
            (a.suite, a.conversation, a.turn ?? .max, a.position, a.check) < (b.suite, b.conversation, b.turn ?? .max, b.position, b.check)
        }
    }

    package struct TurnKey: Hashable, Comparable {
        var suite: String, conversation: String, turn: Int
        package static func < (a: TurnKey, b: TurnKey) -> Bool { (a.suite, a.conversation, a.turn) < (b.suite, b.conversation, b.turn) }
    }

    package struct Tally {
        package var passed = 0
        package var total = 0
        var lastVerdict: Verdict?
        var lastAnswer: String?
        var lastFailure: String?
        var isMixed: Bool { passed > 0 && passed < total }

        package init() {}
    }

    /// Every check's and turn's counts on both sides, with their tests.
    package struct Counts {
        package struct Entry<Key> {
            var key: Key
            var base: Tally?
            var head: Tally?
            /// Fisher's test of the counts; nil for a check on one side only.
            var fisher: FisherExact?

            package init(key: Key, base: Tally?, head: Tally?, fisher: FisherExact?) {
                self.key = key
                self.base = base
                self.head = head
                self.fisher = fisher
            }
        }
        var checks: [Entry<CheckKey>]
        var turns: [Entry<TurnKey>]

        package init(checks: [Entry<CheckKey>], turns: [Entry<TurnKey>]) {
            self.checks = checks
            self.turns = turns
        }
    }

    static func tally(base: [RunRecord], head: [RunRecord]) -> Counts {
        let baseChecks = checkTallies(base), headChecks = checkTallies(head)
        let checks = Set(baseChecks.keys).union(headChecks.keys).sorted().map { key in
            Counts.Entry(key: key, base: baseChecks[key], head: headChecks[key], fisher: test(baseChecks[key], headChecks[key]))
        }
        let baseTurns = turnTallies(base), headTurns = turnTallies(head)
        let turns = Set(baseTurns.keys).intersection(headTurns.keys).sorted().map { key in
            Counts.Entry(key: key, base: baseTurns[key], head: headTurns[key], fisher: test(baseTurns[key], headTurns[key]))
        }
        return Counts(checks: checks, turns: turns)
    }

    private static func test(_ base: Tally?, _ head: Tally?) -> FisherExact? {
        guard let base, let head else { return nil }
        return FisherExact(basePassed: base.passed, baseTotal: base.total, headPassed: head.passed, headTotal: head.total)
    }

    /// Sorts the counts into verdicts with the family's decisions (aligned with `counts`).
    static func decide(_ counts: Counts, checkDecisions: [MultipleTesting.Decision?], turnDecisions: [MultipleTesting.Decision?])
        -> QualityComparison
    {
        var quality = QualityComparison(
            regressions: [], improvements: [], flaky: [], undecided: [], added: [], removed: [],
            turnRegressions: [], turnsUndecided: [])
        for (entry, decision) in zip(counts.checks, checkDecisions) {
            guard let base = entry.base else {
                quality.added.append(change(entry, verdict: .unchanged, decision: nil))
                continue
            }
            guard let head = entry.head else {
                quality.removed.append(change(entry, verdict: .unchanged, decision: nil))
                continue
            }
            let verdict = countVerdict(base: base, head: head, decision: decision)
            let item = change(entry, verdict: verdict, decision: decision)
            switch verdict {
            case .regression: quality.regressions.append(item)
            case .improvement: quality.improvements.append(item)
            case .flaky: quality.flaky.append(item)
            case .undecided: quality.undecided.append(item)
            case .unchanged: break
            // `countVerdict` decides a count, never a metric: these five are metrics' verdicts.
            case .notWorse, .underpowered, .notMeasured, .notGated, .accepted: break
            }
        }
        for (entry, decision) in zip(counts.turns, turnDecisions) {
            guard let base = entry.base, let head = entry.head else { continue }
            let verdict = countVerdict(base: base, head: head, decision: decision)
            // Only what got worse matters for a turn: it answered, and now does not.
            guard head.passed * base.total < base.passed * head.total else { continue }
            let item = TurnChange(
                suite: entry.key.suite, conversation: entry.key.conversation, turn: entry.key.turn &+ 1,
                baseAnswered: base.passed, baseTotal: base.total, headAnswered: head.passed, headTotal: head.total,
                pValue: entry.fisher?.pValue, adjustedPValue: decision?.adjustedPValue, verdict: verdict,
                headOutcome: head.lastFailure ?? "")
            if verdict == .regression {
                quality.turnRegressions.append(item)
            } else if verdict == .undecided {
                quality.turnsUndecided.append(item)
            }
        }
        return quality
    }

    /// A count's verdict: regression, improvement, flaky, undecided or unchanged.
    static func countVerdict(base: Tally, head: Tally, decision: MultipleTesting.Decision?) -> ChangeVerdict {
        let baseRate = Double(base.passed) / Double(max(base.total, 1)), headRate = Double(head.passed) / Double(max(head.total, 1))
        if decision?.significant == true { return headRate < baseRate ? .regression : .improvement }
        if base.isMixed || head.isMixed { return .flaky }
        return baseRate == headRate ? .unchanged : .undecided
    }

    /// Every check's verdicts over the measured replays of `runs`.
    static func checkTallies(_ runs: [RunRecord]) -> [CheckKey: Tally] {
        var tallies: [CheckKey: Tally] = [:]
        func add(_ verdict: Verdict, _ key: CheckKey, answer: String?) {
            tallies[key, default: Tally()].total += 1
            if verdict.passed { tallies[key, default: Tally()].passed += 1 }
            tallies[key]?.lastVerdict = verdict
            tallies[key]?.lastAnswer = answer
        }
        for run in runs.sorted(by: { $0.startedAt < $1.startedAt }) {
            for suite in run.suites {
                for conversation in suite.conversations where conversation.isMeasured {
                    for (key, verdict, answer) in verdicts(suite: suite.name, conversation) { add(verdict, key, answer: answer) }
                }
            }
        }
        return tallies
    }

    /// One replay's check verdicts under their keys, with the answer each judged (a
    /// conversation-level check judged the last answered turn's).
    static func verdicts(suite: String, _ conversation: ConversationRecord) -> [(CheckKey, Verdict, String?)] {
        var found: [(CheckKey, Verdict, String?)] = []
        for turn in conversation.turns {
            for (position, verdict) in (turn.checks ?? []).enumerated() {
                found.append(
                    (
                        CheckKey(suite: suite, conversation: conversation.id, turn: turn.index, position: position, check: verdict.check),
                        verdict, turn.answer
                    ))
            }
        }
        let last = conversation.turns.last(where: { $0.status == .answered })?.answer
        for (position, verdict) in conversation.checks.enumerated() {
            found.append(
                (CheckKey(suite: suite, conversation: conversation.id, turn: nil, position: position, check: verdict.check), verdict, last))
        }
        return found
    }

    /// Every turn's answered count over the measured replays of `runs`.
    static func turnTallies(_ runs: [RunRecord]) -> [TurnKey: Tally] {
        var tallies: [TurnKey: Tally] = [:]
        for run in runs.sorted(by: { $0.startedAt < $1.startedAt }) {
            for suite in run.suites {
                for conversation in suite.conversations where conversation.isMeasured {
                    for turn in conversation.turns {
                        let key = TurnKey(suite: suite.name, conversation: conversation.id, turn: turn.index)
                        tallies[key, default: Tally()].total += 1
                        if turn.status == .answered {
                            tallies[key, default: Tally()].passed += 1
                        } else {
                            tallies[key]?.lastFailure = turn.failure.map(\.description) ?? "skipped: \(turn.skipReason ?? "")"
                        }
                    }
                }
            }
        }
        return tallies
    }

    static func change(_ entry: Counts.Entry<CheckKey>, verdict: ChangeVerdict, decision: MultipleTesting.Decision?) -> CheckChange {
        let latest = entry.head ?? entry.base
        let key = entry.key
        return CheckChange(
            suite: key.suite, conversation: key.conversation, turn: key.turn.map { $0 &+ 1 }, position: key.position &+ 1,
            check: key.check, basePassed: entry.base?.passed ?? 0, baseTotal: entry.base?.total ?? 0,
            headPassed: entry.head?.passed ?? 0, headTotal: entry.head?.total ?? 0,
            pValue: entry.fisher?.pValue, adjustedPValue: decision?.adjustedPValue, verdict: verdict,
            detail: latest?.lastVerdict?.detail, answerExcerpt: latest?.lastAnswer.map { excerpt($0) })
    }

    /// The answer's start on one line (at most 100 characters), redacted before it is cut (`Secrets`).
    static func excerpt(_ answer: String) -> String {
        let flat = Secrets.redact(answer).split(whereSeparator: \.isNewline).joined(separator: " ⏎ ")
        return flat.count > 100 ? String(flat.prefix(99)) + "…" : flat
    }
}
