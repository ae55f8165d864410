import Foundation

// The grading benchmark behind `make bench`. Run in release mode.
//
//   chateval-grading-bench [ANSWERS] [--only TYPE | --per-check | --runner-only | --every-core-only | --print-verdicts]
//       grades ANSWERS (default 10,000) synthetic answers against a 20-check turn and prints the time;
//       --only TYPE times that check alone, 20 times over the answers (nothing else: for a profile),
//       --per-check each check of the turn in turn, --runner-only the run's own path alone,
//       --every-core-only `chateval grade`'s path alone (conversations on every core),
//       --print-verdicts every verdict as a JSON line (to diff two builds);
//   chateval-grading-bench --agreement DIR [--show-disagreements]
//       grades the reference files scripts/grading-reference.py wrote to DIR and prints how often
//       ChatEval agrees with lm-evaluation-harness (IFEval) and with langdetect;
//   chateval-grading-bench --first-use
//       times the first sentence count of a fresh process (which parses the Punkt model).

let arguments = CommandLine.arguments
func value(after flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

if let directory = value(after: "--agreement") {
    let showDisagreements = arguments.contains("--show-disagreements")
    let ok =
        Agreement.ifeval(file: directory + "/ifeval.jsonl", showDisagreements: showDisagreements)
        && Agreement.languages(file: directory + "/langdetect.jsonl", showDisagreements: showDisagreements)
    if !ok { exit(1) }
} else if arguments.contains("--first-use") {
    FirstUse.run()
} else {
    let answerCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
    Throughput.run(
        answerCount: answerCount, only: value(after: "--only"), perCheck: arguments.contains("--per-check"),
        runnerOnly: arguments.contains("--runner-only"), everyCoreOnly: arguments.contains("--every-core-only"),
        printVerdicts: arguments.contains("--print-verdicts"))
}
