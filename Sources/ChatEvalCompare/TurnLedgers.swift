import ChatEvalCore
import ChatEvalStore

/// One side's turns, gathered over its replays but warm-ups — left-out ones too: a replay disturbed
/// by a busy machine has its timings spoiled, not its work —
/// every repetition's ledger, answer and check verdicts per turn.
public struct TurnLedgers: Sendable {
    public struct Entry: Sendable {
        public var ledgers: [WorkLedger] = []
        public var answers: [String] = []
        /// Verdicts per repetition: position among the turn's checks → (check type, passed, and
        /// whether the verdict reads timings or memory: `Verdict.readsMeasurements`).
        public var verdicts: [[(check: String, passed: Bool, measured: Bool)]] = []
        /// True when every replay of the turn decoded greedily.
        public var greedy = true
        /// Messages sent (system prompt included) in the first repetition.
        public var messagesSent = 0
        /// The conversation's system prompt.
        public var systemPrompt: String?
        /// The head's reuse miss in the first repetition, when there was one.
        public var reuseMiss: ReuseMiss?
        /// Turns that failed or were skipped in some repetition (the ledger is then not whole).
        public var unanswered = 0
        /// Prefill seconds per evaluated token and decode seconds per generated token, per repetition.
        public var prefillPerToken: [Double] = []
        public var decodePerToken: [Double] = []

        /// Whether the ledger repeated exactly. A sampled turn is never exact: its repetitions
        /// agreeing is seen, not guaranteed.
        public var determinism: LedgerDeterminism {
            if unanswered > 0 || ledgers.isEmpty { return .varies }
            let alike = ledgers.dropFirst().allSatisfy { $0 == ledgers[0] }
            if !greedy { return ledgers.count == 1 ? .sampledOnce : alike ? .sampled : .varies }
            if ledgers.count == 1 { return .greedyOnce }
            return alike ? .exact : .varies
        }

        /// Whether every repetition gave the same answer text.
        public var answersRepeat: Bool { answers.dropFirst().allSatisfy { $0 == answers.first } }
    }

    public var entries: [LedgerTurn: Entry]
    /// The runs gathered.
    public var runs: [RunRecord]

    /// Gathers `runs` (one side: one run, or several of one commit).
    public init(_ runs: [RunRecord]) {
        self.runs = runs
        var entries: [LedgerTurn: Entry] = [:]
        for run in runs {
            for suite in run.suites {
                for conversation in suite.conversations where !conversation.warmup {
                    for turn in conversation.turns {
                        let key = LedgerTurn(suite: suite.name, conversation: conversation.id, turn: turn.index + 1)
                        var entry = entries[key] ?? Entry()
                        entry.systemPrompt = conversation.systemPrompt
                        Self.add(turn, greedy: conversation.options.isGreedy, to: &entry)
                        entries[key] = entry
                    }
                }
            }
        }
        self.entries = entries
    }

    private static func add(_ turn: TurnRecord, greedy: Bool, to entry: inout Entry) {
        entry.greedy = entry.greedy && greedy
        guard turn.status == .answered, let metrics = turn.metrics else {
            entry.unanswered += 1
            return
        }
        if entry.ledgers.isEmpty {
            entry.messagesSent = turn.replayed.messagesSent
            entry.reuseMiss = metrics.reuseMiss
        }
        entry.ledgers.append(metrics.ledger)
        entry.answers.append(turn.answer ?? "")
        entry.verdicts.append((turn.checks ?? []).map { ($0.check, $0.passed, $0.readsMeasurements) })
        if let value = metrics.prefillTimePerEvaluatedToken { entry.prefillPerToken.append(value) }
        if let value = metrics.decodeTimePerGeneratedToken { entry.decodePerToken.append(value) }
    }

    /// The turns in order.
    public var turns: [LedgerTurn] { entries.keys.sorted() }

    /// How many turns are of each determinism.
    public var determinismCounts: [LedgerDeterminism: Int] {
        entries.values.reduce(into: [:]) { counts, entry in counts[entry.determinism, default: 0] += 1 }
    }

    /// Repetitions per turn, at most (the side's measured repetitions).
    public var repetitions: Int { entries.values.map(\.ledgers.count).max() ?? 0 }
}
