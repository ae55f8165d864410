import ChatEvalCore
import ChatEvalStore

/// What a paired run (`run --baseline`) decides a look with: the settings, the command line's
/// overrides, the exact ledger's gates and the head's declared expectations. The run records
/// them (`DecidedLook`) beside the look it decided at, so that comparing its two result files
/// again decides the same way (`RunComparator.comparePairedAgain`).
public struct PairedGateSettings: Sendable, Hashable {
    public var settings: ComparisonSettings
    public var overrides: ComparisonOverrides
    public var ledgerGates: LedgerGates
    public var expectations: [Expectation]

    public init(
        settings: ComparisonSettings, overrides: ComparisonOverrides = ComparisonOverrides(), ledgerGates: LedgerGates = .default,
        expectations: [Expectation] = []
    ) {
        self.settings = settings
        self.overrides = overrides
        self.ledgerGates = ledgerGates
        self.expectations = expectations
    }

    /// What `look` recorded; nil when it recorded no settings (a record written before them).
    public init?(recorded look: DecidedLook) {
        guard let settings = look.settings else { return nil }
        self.init(
            settings: settings, overrides: look.overrides ?? ComparisonOverrides(), ledgerGates: look.ledgerGates ?? .default,
            expectations: look.expectations ?? [])
    }

    /// `look` with these settings recorded in it.
    public func recorded(in look: DecidedLook) -> DecidedLook {
        var look = look
        look.settings = settings
        look.overrides = overrides
        look.ledgerGates = ledgerGates
        look.expectations = expectations
        return look
    }
}

extension RunComparator {
    /// One look of a paired run: its two records compared at `look`, the exact ledger compared,
    /// the expected changes accepted — what the run decides its rounds by.
    public static func comparePaired(
        base: RunRecord, head: RunRecord, gate: PairedGateSettings, look: ComparisonLook, turnDetail: Bool
    ) -> Comparison {
        var comparison = compare(
            base: ComparedRuns(runs: [base], sources: []), head: ComparedRuns(runs: [head], sources: []), settings: gate.settings,
            commandLine: gate.overrides, turnDetail: turnDetail, look: look)
        comparison.attachLedger(LedgerComparator.compare(base: [base], head: [head], gates: gate.ledgerGates))
        comparison.accept(gate.expectations)
        return comparison
    }

    /// The two records of one paired job compared again as the job decided them: at the look it
    /// recorded, with the settings, overrides, ledger gates and expectations it recorded
    /// (`commandLine` applied over its overrides, for a reader who asks for other settings), and
    /// with the regressions it confirmed at earlier looks kept — each such look re-derived from
    /// the replays of its repetitions. A pure function of the two records: the gate's own final
    /// comparison is this one, so `chateval compare` of its files reproduces its verdicts. nil
    /// when the records are not one paired job, or recorded no settings (older records).
    public static func comparePairedAgain(
        base: RunRecord, head: RunRecord, commandLine: ComparisonOverrides = ComparisonOverrides(), turnDetail: Bool = true
    ) -> Comparison? {
        guard ComparedRuns.onePairedJob(base: [base], head: [head]), let decided = head.decidedLook, base.decidedLook == decided,
            var gate = PairedGateSettings(recorded: decided)
        else { return nil }
        gate.overrides = gate.overrides.then(commandLine)
        let design = SequentialDesign(looks: decided.looks)
        var comparison = comparePaired(
            base: base, head: head, gate: gate, look: .recorded(base: [base], head: [head]), turnDetail: turnDetail)
        for earlier in decided.confirmed ?? [] where design.looks.indices.contains(earlier.look - 1) {
            let look = ComparisonLook(index: earlier.look - 1, design: design, share: earlier.share, intervalShare: earlier.intervalShare)
            let confirmed = comparePaired(
                base: base.upToRepetition(earlier.repetitions), head: head.upToRepetition(earlier.repetitions), gate: gate, look: look,
                turnDetail: false)
            comparison.keepRegressions(confirmedIn: confirmed, look: earlier.look, repetitions: earlier.repetitions)
        }
        return comparison
    }
}

extension RunRecord {
    /// The record as it stood after `repetitions` repetitions per side: its warm-ups and the
    /// replays of repetitions 1 through `repetitions` (any measured again among them too).
    public func upToRepetition(_ repetitions: Int) -> RunRecord {
        var record = self
        for index in record.suites.indices {
            record.suites[index].conversations.removeAll { $0.repetition > repetitions }
        }
        record.settings.repetitions = min(record.settings.repetitions, repetitions)
        return record
    }
}

extension ComparisonOverrides {
    /// These overrides, then `later`'s on top (each field `later` sets wins; thresholds metric by
    /// metric, bound by bound). A later preset replaces everything set before it.
    public func then(_ later: ComparisonOverrides) -> ComparisonOverrides {
        guard later.preset == nil else { return later }
        var merged = self
        if let value = later.familyErrorRate { merged.familyErrorRate = value }
        if let value = later.confidence { merged.confidence = value }
        if let value = later.minimumSamples { merged.minimumSamples = value }
        if let value = later.busyThreshold { merged.busyThreshold = value }
        if let value = later.priority { merged.priority = value }
        for (metric, bound) in later.thresholds {
            var current = merged.thresholds[metric] ?? ThresholdOverride()
            if let relative = bound.relative { current.relative = relative }
            if let absolute = bound.absolute { current.absolute = absolute }
            merged.thresholds[metric] = current
        }
        return merged
    }
}
