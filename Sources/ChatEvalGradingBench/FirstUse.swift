import ChatEvalCore
import ChatEvalGrading
import ChatEvalRuntime
import Foundation

/// What a process pays the first time it counts sentences: the Punkt model's tables are parsed
/// then, once. Run in a fresh process each time (`chateval-grading-bench --first-use`); the second
/// count, on the same short answer, is the part that is not the tables.
enum FirstUse {
    static func run() {
        guard let check = Throughput.make("length_constraints:number_sentences", ["num_sentences": 2, "relation": "at least"]) else {
            return
        }
        let subject = GradingSubject(answer: "Dr. Smith arrived at 3.30 p.m. yesterday. He sat down.")
        let clock = ContinuousClock()
        var verdicts: [Verdict] = []
        let cpuUsed = CPUStopwatch()
        let first = clock.measure { verdicts.append(check.evaluate(subject)) }
        let cpu = cpuUsed.elapsed ?? .nan
        let second = clock.measure { verdicts.append(check.evaluate(subject)) }
        print(
            "first sentence count (parses the Punkt model) \(milliseconds(first)) ms wall, \(String(format: "%.2f", cpu * 1000)) ms CPU; "
                + "the second \(milliseconds(second)) ms wall (\(verdicts.allSatisfy(\.passed) ? "passed" : "failed"))")
    }

    static func milliseconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.2f", seconds * 1000)
    }
}
