import ChatEvalCore
import ChatEvalStore

/// Multi-turn instruction-following scores of the conversations tagged `multi-turn-if`, turn by
/// turn, as Multi-IF and IFEval report them, with the turn's cost beside them.
///
/// Every top-level check of a turn is one *instruction*. At turn k, over the measured replays
/// that reach turn k and check something there:
/// - **prompt-level accuracy**: the share of those turns whose every instruction is followed;
/// - **instruction-level accuracy**: the share of their instructions followed;
/// - both **strict** (the verdicts as graded) and **loose** (IFEval's loose reading of IFEval
///   instructions, recorded in `Verdict.loose`; other checks read the same either way);
/// - **forgetting**: of the instructions followed at turn k − 1 and asked again at turn k (the
///   same `Verdict.instruction` text), the share not followed at k;
/// - **survival**: the Kaplan–Meier estimate of the share of conversations fully compliant
///   (prompt-level, strict) at every checked turn 1...k. A conversation that ends before turn k
///   leaves the count at risk without counting as a failure, so conversations of 3 and 8 turns
///   share one curve;
/// - the median time to first token and share of the prompt reused from the cache at turn k.
/// A turn that failed or was skipped follows none of its instructions.
public struct InstructionFollowingScores: Sendable, Equatable {
    public struct Turn: Sendable, Equatable {
        /// 1-based.
        public var turn: Int
        /// Replays whose turn `turn` has instructions.
        public var prompts = 0
        public var promptsFollowedStrict = 0
        public var promptsFollowedLoose = 0
        public var instructions = 0
        public var instructionsFollowedStrict = 0
        public var instructionsFollowedLoose = 0
        /// Instructions followed at the turn before and asked again at this one.
        public var carried = 0
        /// Of `carried`, those not followed at this turn.
        public var forgotten = 0
        /// Replays fully compliant up to the turn before that check something at this turn.
        public var atRisk = 0
        /// Of `atRisk`, those that follow all of this turn's instructions.
        public var survived = 0
        /// Kaplan–Meier share of conversations fully compliant through this turn.
        public var survival = 1.0
        public var medianTimeToFirstToken: Double?
        public var medianReuseRatio: Double?

        public var promptAccuracyStrict: Double? { share(promptsFollowedStrict, prompts) }
        public var promptAccuracyLoose: Double? { share(promptsFollowedLoose, prompts) }
        public var instructionAccuracyStrict: Double? { share(instructionsFollowedStrict, instructions) }
        public var instructionAccuracyLoose: Double? { share(instructionsFollowedLoose, instructions) }
        public var forgettingRate: Double? { share(forgotten, carried) }
    }

    /// One row per turn position, from turn 1 to the longest conversation's last.
    public var turns: [Turn]
    /// Measured replays scored.
    public var replays: Int

    /// Over all turns: prompt- and instruction-level counts and forgetting.
    public var total: Turn {
        var sum = Turn(turn: 0)
        for row in turns {
            sum.prompts += row.prompts
            sum.promptsFollowedStrict += row.promptsFollowedStrict
            sum.promptsFollowedLoose += row.promptsFollowedLoose
            sum.instructions += row.instructions
            sum.instructionsFollowedStrict += row.instructionsFollowedStrict
            sum.instructionsFollowedLoose += row.instructionsFollowedLoose
            sum.carried += row.carried
            sum.forgotten += row.forgotten
        }
        sum.survival = turns.last?.survival ?? 1
        return sum
    }

    /// The scores of the measured replays among `conversations` tagged `multi-turn-if`; nil when
    /// there are none.
    public init?(_ conversations: [ConversationRecord]) {
        let scored = conversations.filter { $0.isMeasured && ($0.tags ?? []).contains(Self.tag) }
        guard !scored.isEmpty else { return nil }
        replays = scored.count
        let length = scored.map(\.turns.count).max() ?? 0
        turns = (0..<length).map { Turn(turn: $0 + 1) }
        var ttft = Array(repeating: [Double](), count: length)
        var reuse = Array(repeating: [Double](), count: length)
        for conversation in scored {
            var compliant = true
            var previous: [Verdict] = []
            for (index, turn) in conversation.turns.enumerated() {
                if let metrics = turn.metrics {
                    ttft[index].append(metrics.timeToFirstToken)
                    if let ratio = metrics.reuseRatio { reuse[index].append(ratio) }
                }
                let verdicts = turn.checks ?? []
                guard !verdicts.isEmpty else {
                    previous = []
                    continue
                }
                let followed = verdicts.allSatisfy(\.passed)
                turns[index].prompts += 1
                turns[index].promptsFollowedStrict += followed ? 1 : 0
                turns[index].promptsFollowedLoose += verdicts.allSatisfy(\.passedLoosely) ? 1 : 0
                turns[index].instructions += verdicts.count
                turns[index].instructionsFollowedStrict += verdicts.filter(\.passed).count
                turns[index].instructionsFollowedLoose += verdicts.filter(\.passedLoosely).count
                let (carried, forgotten) = Self.carried(from: previous, to: verdicts)
                turns[index].carried += carried
                turns[index].forgotten += forgotten
                if compliant {
                    turns[index].atRisk += 1
                    turns[index].survived += followed ? 1 : 0
                    compliant = followed
                }
                previous = verdicts
            }
        }
        var survival = 1.0
        for index in turns.indices {
            if turns[index].atRisk > 0 { survival *= Double(turns[index].survived) / Double(turns[index].atRisk) }
            turns[index].survival = survival
            turns[index].medianTimeToFirstToken = Distribution(ttft[index])?.median
            turns[index].medianReuseRatio = Distribution(reuse[index])?.median
        }
    }

    /// The conversation tag that asks for these scores.
    public static let tag = Verdict.instructionFollowingTag

    /// Instructions followed in `previous` and asked again in `current` (matched by their
    /// instruction text, each used once), and how many of those `current` does not follow.
    static func carried(from previous: [Verdict], to current: [Verdict]) -> (carried: Int, forgotten: Int) {
        var followedBefore: [String: Int] = [:]
        for verdict in previous where verdict.passed {
            if let instruction = verdict.instruction { followedBefore[instruction, default: 0] += 1 }
        }
        var carried = 0, forgotten = 0
        for verdict in current {
            guard let instruction = verdict.instruction, let left = followedBefore[instruction], left > 0 else { continue }
            followedBefore[instruction] = left - 1
            carried += 1
            forgotten += verdict.passed ? 0 : 1
        }
        return (carried, forgotten)
    }
}

private func share(_ part: Int, _ whole: Int) -> Double? { whole > 0 ? Double(part) / Double(whole) : nil }

extension InstructionFollowingScores {
    /// One block of scores: a model's run (`label` names the model when several ran), split by
    /// suite, and by variant where a suite has variants.
    public struct Section: Sendable, Equatable {
        public var label: String?
        public var all: InstructionFollowingScores
        /// Per suite (`suite` or `suite · variant`), in the record's order.
        public var parts: [(name: String, scores: InstructionFollowingScores)]

        public static func == (lhs: Section, rhs: Section) -> Bool {
            lhs.label == rhs.label && lhs.all == rhs.all && lhs.parts.map(\.name) == rhs.parts.map(\.name)
                && lhs.parts.map(\.scores) == rhs.parts.map(\.scores)
        }
    }

    /// The scores of each record that holds conversations tagged `multi-turn-if`.
    public static func sections(_ records: [RunRecord], labels: [String?]) -> [Section] {
        zip(records, labels).compactMap { record, label in
            let conversations = record.suites.flatMap(\.conversations)
            guard let all = InstructionFollowingScores(conversations) else { return nil }
            var parts: [(String, InstructionFollowingScores)] = []
            for suite in record.suites {
                var variants: [String?] = []
                for conversation in suite.conversations where !variants.contains(conversation.variant) {
                    variants.append(conversation.variant)
                }
                for variant in variants {
                    let chosen = suite.conversations.filter { $0.variant == variant }
                    if let scores = InstructionFollowingScores(chosen) {
                        parts.append((variant.map { "\(suite.name) · \($0)" } ?? suite.name, scores))
                    }
                }
            }
            return Section(label: label, all: all, parts: parts)
        }
    }
}
