import ChatEvalCompare
import ChatEvalCore
import Testing

/// The gate's own error rates, measured on seeded synthetic runs (the same figures `make bench`
/// prints for the shipped suites' shape).
@Suite struct GateCalibrationTests {
    /// An 8-turn suite (like long-conversation), 10% coefficient of variation on every value.
    let eightTurns = [8]

    @Test func identicalBuildsRarelyFalseAlarm() {
        let outcome = GateCalibration(settings: .default).run(
            .init(suiteTurns: eightTurns, repetitions: ComparisonSettings.defaultRepetitions, coefficientOfVariation: 0.1),
            trials: 1000, seed: 1)
        print("A/A: \(outcome.anyRegression) of \(outcome.trials) comparisons flagged a regression (\(outcome.anyChange) any change)")
        #expect(outcome.anyRegressionRate <= 0.01)
        #expect(outcome.anyChangeRate <= 0.02)   // two-sided: about half the false alarms are improvements
    }

    @Test func aTenPercentSlowdownIsCaught() {
        let outcome = GateCalibration(settings: .default).run(
            .init(suiteTurns: eightTurns, repetitions: ComparisonSettings.defaultRepetitions, coefficientOfVariation: 0.1, slowdown: 0.1),
            trials: 1000, seed: 2)
        print("10% slower TTFT: caught in \(outcome.ttftRegression) of \(outcome.trials) comparisons")
        #expect(outcome.ttftRegressionRate >= 0.95)
    }

    @Test func twoSamplesAreUnderpowered() {
        let outcome = GateCalibration(settings: .default).run(
            .init(suiteTurns: [1], repetitions: 2, coefficientOfVariation: 0.1, slowdown: 0.1), trials: 50, seed: 3)
        #expect(outcome.ttftUnderpowered == 50)
        #expect(outcome.anyChange == 0)
    }
}
