import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalToolKit
import Foundation

/// Seeded synthetic bisections: histories of `commits` commits with one TTFT step at a random
/// commit, each probe decided by the gate's own tests on drawn replays (`GateCalibration`), the
/// whole search by `Bisector` — how often the culprit is found exactly, how often a wrong commit
/// is named, and the repetitions spent against the same search with a fixed count per probe.
struct BisectBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect", abstract: "Seeded synthetic bisections: culprit found, wrong commits named, repetitions spent.")

    @Option(help: "Bisections per step size.") var trials = 1_000
    @Option(help: "Commits after the good one; the last is the bad one.") var commits = 64
    @Option(help: "Step sizes (relative TTFT slowdown), comma-separated.") var steps = "0.05,0.10,0.20"
    @Option(help: "Coefficient of variation of every replay's TTFT.") var noise = 0.10
    @Option(help: "One-turn conversations per suite.") var questions = 8
    @Option(name: .customLong("max-repeat"), help: "The most repetitions per side of one probe's rounds.") var maxRepeat = 60
    @Option(help: "Repetitions per side of every probe of the fixed-count searches it is set against, comma-separated.")
    var fixed = "20,60"
    @Option(name: .customLong("error-rate"), help: "The whole bisection's error rate.") var errorRate = 0.05
    @Option(help: "Relabellings drawn per comparison (the gate draws 10,000).") var permutations = 2_000
    @Option(help: "Seed of the first bisection.") var seed: UInt64 = 1
    @Flag(name: .customLong("show-misses"), help: "Print every probe of each bisection that did not name the step's commit.")
    var showMisses = false

    private var fixedCounts: [Int] { fixed.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func run() async throws {
        let sizes = steps.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, commits >= 2, trials >= 1 else { throw ValidationError("--steps, --commits ≥ 2 and --trials ≥ 1") }
        print(
            "\nbisect — \(trials) seeded bisections per step, \(commits) commits, one TTFT step at a random commit, "
                + "\(Int(noise * 100))% noise, \(questions) one-turn questions; error rate \(errorRate) over each bisection")
        print("step   design        exact   wrong   undecided  not chased   median reps  (p90)   median probes")
        for size in sizes {
            for design in [SequentialDesign.rounds(maximum: maxRepeat)] + fixedCounts.map(SequentialDesign.fixed) {
                let started = Date()
                var tally = Tally()
                for trial in 0..<trials {
                    var random = SeededRandom(seed: seed &+ UInt64(trial) &* 7_919)
                    let culprit = 1 + Int(random.uniform() * Double(commits)) % commits
                    let prober = SyntheticProber(
                        culprit: culprit, step: size, noise: noise, questions: questions, design: design, permutations: permutations,
                        seed: random.next())
                    let states = (0...commits).map { BisectState(commit: "c\($0)", shortId: "c\($0)", subject: "commit \($0)") }
                    let outcome = try await Bisector(states: states, errorRate: errorRate).run(prober)
                    tally.add(outcome, culprit: culprit)
                    if showMisses, outcome.findings.first?.culprits.first?.state != culprit { printMiss(outcome, culprit: culprit) }
                }
                let label = design.isSequential ? "rounds ≤\(maxRepeat)" : "fixed \(design.maximum)"
                print(
                    String(
                        format: "%3.0f%%   %-12@ %6.1f%% %6.1f%%  %8.1f%%  %9.1f%%   %9.0f  %6.0f   %9.0f     (%.0f s)", size * 100,
                        label as NSString, tally.percent(tally.exact), tally.percent(tally.wrong), tally.percent(tally.undecided),
                        tally.percent(tally.notChased), median(tally.repetitions), Distribution(tally.repetitions)?.p90 ?? .nan,
                        median(tally.probes), Date().timeIntervalSince(started)))
            }
        }
        print(
            "exact: the culprit named is the step's commit; wrong: another commit named (with the bisection's confidence); "
                + "undecided: a probe could not decide and the range is named; not chased: the endpoints did not show the step. "
                + "reps: repetitions per side summed over the endpoints and every probe.")
    }

    /// A bisection that did not name the step's commit, probe by probe.
    private func printMiss(_ outcome: BisectOutcome, culprit: Int) {
        let named = outcome.findings.first?.culprits.map { String($0.state) } ?? []
        print("  step at \(culprit), named \(named)")
        for log in ((outcome.endpoints.map { [$0] } ?? []) + outcome.probes) {
            let reading = log.result.readings.first
            let interval = [reading?.change, reading?.lower, reading?.upper].map { $0.map { String(format: "%+.3f", $0) } ?? "–" }
            print(
                "    \(log.probe.head) against \(log.probe.base): \(reading?.side.rawValue ?? "same"), \(log.result.repetitions) reps, "
                    + "\(interval[0]) [\(interval[1]), \(interval[2])] \(reading?.detail ?? "")")
        }
    }

    private struct Tally {
        var exact = 0, wrong = 0, undecided = 0, notChased = 0, trials = 0
        var repetitions: [Double] = []
        var probes: [Double] = []

        mutating func add(_ outcome: BisectOutcome, culprit: Int) {
            trials += 1
            repetitions.append(Double(outcome.measured.repetitions))
            probes.append(Double(outcome.probes.count))
            guard let finding = outcome.findings.first else {
                notChased += 1
                return
            }
            if let named = finding.culprits.first?.state {
                if named == culprit { exact += 1 } else { wrong += 1 }
            } else {
                undecided += 1
            }
        }

        func percent(_ count: Int) -> Double { 100 * Double(count) / Double(max(trials, 1)) }
    }
}

/// A history's probes drawn from seeded replays: every commit from `culprit` on is `step`
/// slower in TTFT; each probe is one comparison through the gate's tests at the probe's settings.
private actor SyntheticProber: BisectProber {
    let culprit: Int
    let step: Double
    let scenario: GateCalibration.Scenario
    let permutations: Int
    var random: SeededRandom

    init(culprit: Int, step: Double, noise: Double, questions: Int, design: SequentialDesign, permutations: Int, seed: UInt64) {
        self.culprit = culprit
        self.step = step
        scenario = GateCalibration.Scenario(
            suites: [Array(repeating: 1, count: questions)], repetitions: design.maximum, coefficientOfVariation: noise, design: design)
        self.permutations = permutations
        random = SeededRandom(seed: seed)
    }

    func probe(_ probe: BisectProbe) async throws -> BisectProbeResult {
        var gate = ComparisonSettings.default
        gate.metrics = [.timeToFirstToken]
        gate.thresholds = gate.thresholds.filter { $0.key == .timeToFirstToken }
        var scenario = scenario
        scenario.baseSlowdown = probe.base >= culprit ? step : 0
        scenario.slowdown = probe.head >= culprit ? step : 0
        let settings = BisectReadings.settings(for: probe.kind, from: gate)
        let calibration = GateCalibration(settings: settings, permutationSamples: permutations)
        let (ttft, repetitions) = calibration.compareOnce(scenario, &random)
        let signal = BisectSignal.metric(suite: "suite1", metric: .timeToFirstToken)
        var reading = ttft.map { BisectReadings.metric($0, suite: "suite1") } ?? SignalReading(signal: signal, side: .undecided, detail: "")
        reading.signal = signal
        if case .endpoints = probe.kind, reading.side == .same {
            return BisectProbeResult(readings: [], repetitions: repetitions, seconds: 0)
        }
        return BisectProbeResult(readings: [reading], repetitions: repetitions, seconds: 0)
    }
}
