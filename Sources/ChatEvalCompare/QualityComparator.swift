import ChatEvalCore
import ChatEvalStore

/// Compares check verdicts and turn outcomes between the sides.
///
/// A check is known by its place: suite, conversation, turn (or the conversation itself) and
/// position among that turn's checks, with its type. Over every measured replay of a side, a
/// check either always passes, always fails, or is flaky (both happened: the model or the
/// sampler is not deterministic there). Only a check that always passed on base and always fails
/// on head is a regression; a flaky one is reported as such, never as a regression.
enum QualityComparator {
    static func compare(base: [RunRecord], head: [RunRecord]) -> QualityComparison {
        let baseChecks = tally(base), headChecks = tally(head)
        var quality = QualityComparison(newlyFailing: [], newlyPassing: [], flaky: [], added: [], removed: [], newlyFailingTurns: [])
        for key in headChecks.keys.sorted() {
            guard let headTally = headChecks[key] else { continue }
            guard let baseTally = baseChecks[key] else {
                quality.added.append(change(key, base: nil, head: headTally))
                continue
            }
            let entry = change(key, base: baseTally, head: headTally)
            if baseTally.isFlaky || headTally.isFlaky {
                quality.flaky.append(entry)
            } else if baseTally.alwaysPassed && headTally.alwaysFailed {
                quality.newlyFailing.append(entry)
            } else if baseTally.alwaysFailed && headTally.alwaysPassed {
                quality.newlyPassing.append(entry)
            }
        }
        quality.removed = baseChecks.keys.filter { headChecks[$0] == nil }.sorted().compactMap { key in
            baseChecks[key].map { change(key, base: $0, head: nil) }
        }
        quality.newlyFailingTurns = newlyFailingTurns(base: base, head: head)
        return quality
    }

    struct CheckKey: Hashable, Comparable {
        var suite: String
        var conversation: String
        /// 0-based turn, or nil for a conversation-level check (sorted after the turns).
        var turn: Int?
        /// 0-based.
        var position: Int
        var check: String

        static func < (a: CheckKey, b: CheckKey) -> Bool {
            (a.suite, a.conversation, a.turn ?? .max, a.position, a.check) < (b.suite, b.conversation, b.turn ?? .max, b.position, b.check)
        }
    }

    struct Tally {
        var passed = 0
        var total = 0
        var lastVerdict: Verdict?
        var lastAnswer: String?
        var alwaysPassed: Bool { total > 0 && passed == total }
        var alwaysFailed: Bool { total > 0 && passed == 0 }
        var isFlaky: Bool { passed > 0 && passed < total }
    }

    /// Every check's verdicts over the measured replays of `runs`.
    static func tally(_ runs: [RunRecord]) -> [CheckKey: Tally] {
        var tallies: [CheckKey: Tally] = [:]
        func add(_ verdict: Verdict, _ key: CheckKey, answer: String?) {
            tallies[key, default: Tally()].total += 1
            if verdict.passed { tallies[key, default: Tally()].passed += 1 }
            tallies[key]?.lastVerdict = verdict
            tallies[key]?.lastAnswer = answer
        }
        for run in runs.sorted(by: { $0.startedAt < $1.startedAt }) {
            for suite in run.suites {
                for conversation in suite.conversations where !conversation.warmup {
                    for turn in conversation.turns {
                        for (position, verdict) in (turn.checks ?? []).enumerated() {
                            add(verdict, CheckKey(suite: suite.name, conversation: conversation.id, turn: turn.index, position: position, check: verdict.check),
                                answer: turn.answer)
                        }
                    }
                    for (position, verdict) in conversation.checks.enumerated() {
                        add(verdict, CheckKey(suite: suite.name, conversation: conversation.id, turn: nil, position: position, check: verdict.check),
                            answer: conversation.turns.last(where: { $0.status == .answered })?.answer)
                    }
                }
            }
        }
        return tallies
    }

    static func change(_ key: CheckKey, base: Tally?, head: Tally?) -> CheckChange {
        let latest = head ?? base
        return CheckChange(
            suite: key.suite, conversation: key.conversation, turn: key.turn.map { $0 + 1 }, position: key.position + 1,
            check: key.check, basePassed: base?.passed ?? 0, baseTotal: base?.total ?? 0,
            headPassed: head?.passed ?? 0, headTotal: head?.total ?? 0,
            detail: latest?.lastVerdict?.detail, answerExcerpt: latest?.lastAnswer.map { excerpt($0) })
    }

    /// Turns that answered on every base replay and never answered on head.
    static func newlyFailingTurns(base: [RunRecord], head: [RunRecord]) -> [TurnChange] {
        struct TurnKey: Hashable, Comparable {
            var suite: String, conversation: String, turn: Int
            static func < (a: TurnKey, b: TurnKey) -> Bool { (a.suite, a.conversation, a.turn) < (b.suite, b.conversation, b.turn) }
        }
        func outcomes(_ runs: [RunRecord]) -> [TurnKey: [TurnRecord]] {
            var result: [TurnKey: [TurnRecord]] = [:]
            for run in runs {
                for suite in run.suites {
                    for conversation in suite.conversations where !conversation.warmup {
                        for turn in conversation.turns {
                            result[TurnKey(suite: suite.name, conversation: conversation.id, turn: turn.index), default: []].append(turn)
                        }
                    }
                }
            }
            return result
        }
        let baseTurns = outcomes(base), headTurns = outcomes(head)
        return headTurns.keys.sorted().compactMap { key in
            guard let before = baseTurns[key], let after = headTurns[key],
                  before.allSatisfy({ $0.status == .answered }), after.allSatisfy({ $0.status != .answered }),
                  let last = after.last else { return nil }
            let outcome = last.failure.map(\.description) ?? "skipped: \(last.skipReason ?? "")"
            return TurnChange(suite: key.suite, conversation: key.conversation, turn: key.turn + 1, headOutcome: outcome)
        }
    }

    /// The answer's start on one line (at most 100 characters).
    static func excerpt(_ answer: String) -> String {
        let flat = answer.split(whereSeparator: \.isNewline).joined(separator: " ⏎ ")
        return flat.count > 100 ? String(flat.prefix(99)) + "…" : flat
    }
}
