import ChatEvalCore
import ChatEvalStore

/// Compares the work ledgers of two sides exactly (see `LedgerComparison`).
public enum LedgerComparator {
    /// Every turn on both sides: exact turns compared count by count, with the answers and the
    /// checks; varying turns named and left to the statistical gate. When the sides computed with
    /// different arithmetic (`ReplayArithmetic`), the changes are reported and never gated.
    public static func compare(base: [RunRecord], head: [RunRecord], gates: LedgerGates = .default) -> LedgerComparison {
        let baseSide = TurnLedgers(base), headSide = TurnLedgers(head)
        var varying: [VaryingTurn] = []
        var changes: [LedgerChange] = []
        var checks: [ExactCheckChange] = []
        var compared = 0, exact = 0
        var exactBySuite: [String: Int] = [:]
        var answerChanged: Set<String> = []  // suite/conversation of an exact turn whose answer changed
        let settings = settingChanges(base: base, head: head)
        for key in headSide.turns {
            guard let baseEntry = baseSide.entries[key], let headEntry = headSide.entries[key] else { continue }
            compared += 1
            guard baseEntry.determinism.isComparable, headEntry.determinism.isComparable else {
                varying.append(VaryingTurn(turn: key, base: baseEntry.determinism, head: headEntry.determinism))
                continue
            }
            exact += 1
            exactBySuite[key.suite, default: 0] += 1
            let conversation = "\(key.suite)/\(key.conversation)"
            if var change = change(key, baseEntry, headEntry, gates: gates) {
                change.cause = cause(
                    of: change, baseEntry, headEntry, earlierAnswerChanged: answerChanged.contains(conversation), settings: settings)
                if change.answer != nil || change.differences.contains(where: { $0.name == "answer digest" }) {
                    answerChanged.insert(conversation)
                }
                changes.append(change)
            }
            checks += checkChanges(key, baseEntry, headEntry)
        }
        var comparison = LedgerComparison(
            gates: gates, turnsCompared: compared, turnsExact: exact, baseRepetitions: baseSide.repetitions,
            headRepetitions: headSide.repetitions, varying: varying, changes: changes, checks: checks,
            work: work(baseSide, headSide))
        comparison.exactTurnsBySuite = exactBySuite
        comparison.settingChanges = settings.isEmpty ? nil : settings
        comparison.notGated = ReplayArithmetic.reasonNotToGate(base: base, head: head)
        return comparison
    }

    /// The turn's first-repetition ledgers and answers compared; nil when nothing differs.
    static func change(_ key: LedgerTurn, _ base: TurnLedgers.Entry, _ head: TurnLedgers.Entry, gates: LedgerGates) -> LedgerChange? {
        let a = base.ledgers[0], b = head.ledgers[0]
        let baseCounts = Dictionary(a.counts, uniquingKeysWith: { first, _ in first })
        var differences = b.counts.compactMap { name, value -> CountDifference? in
            guard let old = baseCounts[name], old != value else { return nil }
            return CountDifference(name: name, base: String(old), head: String(value), change: value - old)
        }
        if a.stopReason != b.stopReason {
            differences.append(CountDifference(name: "stop", base: a.stopReason.rawValue, head: b.stopReason.rawValue, change: nil))
        }
        if let old = a.answerDigest, let new = b.answerDigest, old.basis == new.basis, old != new {
            differences.append(CountDifference(name: "answer digest", base: old.description, head: new.description, change: nil))
        }
        let answer = TextDivergence(base.answers[0], head.answers[0])
        guard !differences.isEmpty || answer != nil else { return nil }

        var broken: [String] = []
        if gates.evaluatedTokens == .gate, let old = a.evaluatedTokens, let new = b.evaluatedTokens, new > old {
            broken.append("evaluated tokens grew")
        }
        if gates.reuseEfficiency == .gate, let old = a.reuseEfficiency, let new = b.reuseEfficiency, new < old {
            broken.append("reuse efficiency fell")
        }
        if gates.generatedTokens == .gate, b.generatedTokens > a.generatedTokens { broken.append("generated tokens grew") }
        let answerMoved = answer != nil || differences.contains { $0.name == "answer digest" }
        if gates.answers == .gate, answerMoved { broken.append("the answer changed") }
        return LedgerChange(turn: key, base: a, head: b, differences: differences, answer: answer, cause: nil, regressions: broken)
    }

    /// Why the work changed, in words: the reuse accounting's cause of a miss the head has and the
    /// base had not, else what the prompt and answer counts say.
    static func cause(
        of change: LedgerChange, _ base: TurnLedgers.Entry, _ head: TurnLedgers.Entry, earlierAnswerChanged: Bool, settings: [String] = []
    ) -> String? {
        var parts: [String] = []
        if !settings.isEmpty { parts.append("the settings changed (\(settings.joined(separator: ", ")))") }
        let fell = (change.head.reuseEfficiency ?? 1) < (change.base.reuseEfficiency ?? 1)
        if fell, let miss = head.reuseMiss {
            parts.append(missWords(miss.cause) + " at token \(miss.position)")
        }
        if head.messagesSent != base.messagesSent {
            parts.append("\(head.messagesSent) messages sent where base sent \(base.messagesSent) (a history window)")
        }
        if head.systemPrompt != base.systemPrompt { parts.append("the system prompt changed") }
        let promptChange = change.head.promptTokens - change.base.promptTokens
        if promptChange != 0, parts.isEmpty {
            parts.append("the prompt is \(abs(promptChange)) tokens \(promptChange > 0 ? "longer" : "shorter")")
        }
        if earlierAnswerChanged { parts.append("an earlier answer changed") }
        let generated = change.head.generatedTokens - change.base.generatedTokens
        if generated != 0 { parts.append("the answer is \(abs(generated)) tokens \(generated > 0 ? "longer" : "shorter")") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// What the sides were run with that differs, in words: "model a.gguf → b.gguf (sha256
    /// 3f2a1c0b9d8e… → 9c1d…)", "threads 2 → 1" — the settings a commit's project file changes
    /// (the machine and engine build are not settings: see `ReplayArithmetic`).
    static func settingChanges(base: [RunRecord], head: [RunRecord]) -> [String] {
        guard let b = base.max(by: { $0.startedAt < $1.startedAt }), let h = head.max(by: { $0.startedAt < $1.startedAt }) else {
            return []
        }
        var found: [String] = []
        let name = { (run: RunRecord) in String(run.runtime.model.path.split(separator: "/").last ?? "?") }
        if b.modelSha256 != h.modelSha256 || b.runtime.model.path != h.runtime.model.path {
            let digests = b.modelSha256.flatMap { old in h.modelSha256.map { (old, $0) } }
            found.append(
                "model \(name(b)) → \(name(h))" + (digests.map { " (sha256 \($0.0.prefix(12))… → \($0.1.prefix(12))…)" } ?? ""))
        }
        let skipped: Set<String> = ["machine", "engine build", "model sha256"]
        for difference in SettingDifferences.between(base: base, head: head) where !skipped.contains(difference.field) {
            found.append("\(difference.field) \(difference.base) → \(difference.head)")
        }
        return found
    }

    /// A miss's cause, short.
    static func missWords(_ cause: ReuseMiss.Cause) -> String {
        switch cause {
        case .earlierTurnsRerendered: "earlier turns sent differently"
        case .previousAnswerRewritten: "the template rewrote the previous answer"
        case .answerRetokenized: "the previous answer tokenized differently"
        case .answerBoundary: "the previous answer's end tokenized differently"
        case .cacheNotTrimmable: "the cache could not be trimmed"
        case .serverSide: "the server served less from its cache"
        case .coldCache: "cold cache"
        }
    }

    /// Checks constant on each side, differing between them, on answers that repeat exactly. Only
    /// a check whose verdict is a function of the answer: one that reads timings or memory on
    /// either side (`Verdict.readsMeasurements`) moves with the machine and is left to the
    /// counting test with every other check.
    static func checkChanges(_ key: LedgerTurn, _ base: TurnLedgers.Entry, _ head: TurnLedgers.Entry) -> [ExactCheckChange] {
        guard base.answersRepeat, head.answersRepeat, let first = base.verdicts.first, let headFirst = head.verdicts.first else {
            return []
        }
        let measured = { (entry: TurnLedgers.Entry, position: Int) in
            entry.verdicts.contains { position < $0.count && $0[position].measured }
        }
        var found: [ExactCheckChange] = []
        for position in 0..<min(first.count, headFirst.count)
        where first[position].check == headFirst[position].check && !measured(base, position) && !measured(head, position) {
            let baseValues = base.verdicts.compactMap { position < $0.count ? $0[position].passed : nil }
            let headValues = head.verdicts.compactMap { position < $0.count ? $0[position].passed : nil }
            guard let b = baseValues.first, let h = headValues.first, b != h,
                baseValues.allSatisfy({ $0 == b }), headValues.allSatisfy({ $0 == h })
            else { continue }
            found.append(
                ExactCheckChange(
                    turn: key, position: position, check: first[position].check, headPasses: h, baseReplays: baseValues.count,
                    headReplays: headValues.count, answer: TextDivergence(base.answers[0], head.answers[0])))
        }
        return found
    }

    /// Work and time per unit of work, per suite.
    static func work(_ base: TurnLedgers, _ head: TurnLedgers) -> [SuiteWork] {
        let suites = Array(Set(head.entries.keys.map(\.suite)).intersection(base.entries.keys.map(\.suite))).sorted()
        return suites.map { suite in
            func entries(_ side: TurnLedgers) -> [TurnLedgers.Entry] { side.entries.filter { $0.key.suite == suite }.map(\.value) }
            func total(_ side: TurnLedgers, _ value: (WorkLedger) -> Int?) -> Int {
                entries(side).reduce(0) { $0 + ($1.ledgers.first.flatMap(value) ?? 0) }
            }
            func median(_ values: [Double]) -> Double? { Distribution(values)?.p50 }
            return SuiteWork(
                suite: suite, baseEvaluated: total(base) { $0.evaluatedTokens }, headEvaluated: total(head) { $0.evaluatedTokens },
                baseGenerated: total(base) { $0.generatedTokens }, headGenerated: total(head) { $0.generatedTokens },
                basePrefillPerToken: median(entries(base).flatMap(\.prefillPerToken)),
                headPrefillPerToken: median(entries(head).flatMap(\.prefillPerToken)),
                baseDecodePerToken: median(entries(base).flatMap(\.decodePerToken)),
                headDecodePerToken: median(entries(head).flatMap(\.decodePerToken)))
        }
    }
}
