import ChatEvalCore
import ChatEvalGrading
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalSuites
import Foundation

/// Grading throughput: synthetic answers against a 20-check turn.
enum Throughput {
    static let sentences = [
        "The quick brown fox jumps over the lazy dog.", "Dr. Smith arrived at 3.30 p.m. yesterday.",
        "Here is a list of things to consider:", "* First, the *important* point.", "- Second, a dash item.",
        "Is this really what you meant?", "I think the answer is 42, but let me check.", "Café au lait costs €3.50.",
        "P.S. Don't forget the milk.", "Section 2 covers the details.", "Overall, **performance** matters!",
        "日本語の文も少しあります。", "Emoji are fine too 🎉.", "The U.S. economy grew by 2.5% last year.",
    ]

    static func answer(_ seed: Int) -> String {
        var generator = seed &* 2_654_435_761 & 0x7fff_ffff
        var parts: [String] = []
        let count = 8 + generator % 16
        for _ in 0..<count {
            generator = (generator &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
            parts.append(sentences[generator % sentences.count])
            if generator % 5 == 0 { parts.append("\n\n") }
        }
        return parts.joined(separator: " ")
    }

    static func make(_ type: String, _ arguments: CheckArgument.Map = [:]) -> Check? {
        do { return try CheckCatalogue.make(type: type, arguments: arguments) } catch {
            print("definition error: \(error)")
            return nil
        }
    }

    /// The 20-check turn, as a suite states it: graded through the runner's own path
    /// (`ConversationGrader`, which builds each check as a run does).
    static let suiteText = #"""
        name: grading-bench
        conversations:
          - id: c
            turns:
              - user: Tell me something.
                checks:
                  - {type: contains, value: answer}
                  - {type: icontains, value: THE QUICK}
                  - {type: not-contains, value: As an AI}
                  - {type: contains-any, value: [fox, dog, cat]}
                  - {type: regex, value: '\b\d+(\.\d+)?%'}
                  - {type: not-regex, value: '(?i)lorem\s+ipsum'}
                  - {type: starts-with, value: The, trim: true}
                  - {type: length, unit: words, min: 20, max: 400}
                  - {type: not-refusal}
                  - {type: is-json}
                  - {type: "keywords:existence", keywords: [fox, milk]}
                  - {type: "keywords:frequency", keyword: the, frequency: 3, relation: at least}
                  - {type: "length_constraints:number_sentences", num_sentences: 5, relation: at least}
                  - {type: "detectable_format:number_bullet_lists", num_bullets: 2}
                  - {type: "detectable_format:number_highlighted_sections", num_highlights: 1}
                  - {type: "punctuation:no_comma"}
                  - {type: "detectable_content:postscript", postscript_marker: P.S.}
                  - {type: ttft, max: 0.5}
                  - {type: decode-tps, min: 20}
                  - type: all
                    checks: [{type: stop-reason, value: eog}, {type: generated-tokens, max: 512}]
        """#

    static func conversation() -> SuiteConversation? {
        do { return try SuiteLoader.parse(suiteText, file: "grading-bench.yaml").conversations.first } catch {
            print("the bench's suite does not load: \(error)")
            return nil
        }
    }

    /// `change_case:capital_word_frequency` (NLTK's word tokenizer: Punkt, then 33 regex
    /// substitutions per sentence) on a 5 MB answer.
    static func timeLargeAnswer(_ clock: ContinuousClock) {
        let unit = "The café serves crème brûlée. 日本語の文。 Emoji 🎉 here, and NUMBERS like 3.14! I CAN'T GO, Mr. Smith said. "
        let answer = GradingSubject(answer: String(repeating: unit, count: 5_000_000 / unit.utf8.count + 1))
        guard let check = make("change_case:capital_word_frequency", ["capital_frequency": 3, "capital_relation": "at least"]) else {
            return
        }
        var verdict: Verdict?
        // CPU time: less sensitive than wall time to other processes sharing the machine.
        let cpu = CPUStopwatch()
        let elapsed = clock.measure { verdict = check.evaluate(answer) }
        print(
            "change_case:capital_word_frequency on a \(answer.answer.utf8.count / 1_000_000) MB answer in \(elapsed) wall, "
                + "\(cpu.elapsed ?? .nan) s CPU (\(verdict?.passed == true ? "passed" : "failed"))")
    }

    /// Grades `answerCount` answers and prints the time taken; `only` times one check type 20
    /// times over, `perCheck` each check separately, `runnerOnly` only the run's own path and
    /// `everyCoreOnly` only `chateval grade`'s (each for a profile or an instruction count of it,
    /// in a process of its own); `printVerdicts` prints every verdict instead.
    static func run(
        answerCount: Int, only: String?, perCheck: Bool, runnerOnly: Bool = false, everyCoreOnly: Bool = false,
        printVerdicts: Bool = false
    ) {
        guard let conversation = conversation() else { return }
        let checks = conversation.turnChecks[0].compactMap { try? $0.resolved { _ in nil } }
        let metrics = TurnMetrics(
            promptTokens: 900, reusedTokens: 600, generatedTokens: 200, timeToFirstToken: 0.21,
            prefillTime: 0.18, decodeTime: 4.2, totalTime: 4.45, interTokenLatencies: [],
            stopReason: .endOfGeneration, peakResidentBytes: 700_000_000)
        let turns = (0..<answerCount).map {
            [ReplayedTurn(index: 0, user: "Tell me something.", messagesSent: 1, status: .answered, answer: answer($0), metrics: metrics)]
        }
        let characters = turns.reduce(0) { $0 + ($1[0].answer?.count ?? 0) }

        let clock = ContinuousClock()
        // Build lazily initialised tables (Punkt model, NLTK rules) before timing.
        _ = ConversationGrader.grade(conversation, turns: turns[0])
        func timed(_ work: () -> Int) -> (wall: Double, cpu: Double, passed: Int) {
            var passed = 0
            let cpu = CPUStopwatch()
            let elapsed = clock.measure { passed = work() }
            return (elapsed.seconds, cpu.elapsed ?? .nan, passed)
        }
        if let only { return timeOne(only, of: checks, over: turns, metrics: metrics) }
        if printVerdicts { return printEveryVerdict(conversation, turns) }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // As `chateval grade` grades an answers file or a recorded run: conversations on every core.
        func onEveryCore() -> (wall: Double, cpu: Double, passed: Int) {
            timed {
                OrderedConcurrentMap.map(turns, threads: cores) { ConversationGrader.grade(conversation, turns: $0).turns[0] }
                    .reduce(0) { $0 + passedCount($1.checks) }
            }
        }
        if everyCoreOnly {
            let graded = onEveryCore()
            return print(
                "graded \(turns.count) answers × \(checks.count) checks as `chateval grade` does (conversations on \(cores) threads) "
                    + "in \(graded.wall) s wall, \(graded.cpu) s CPU (\(graded.passed) passed)")
        }
        // What a run pays per turn: the checks (built once, then reused), every verdict, the turn's record.
        let runner = timed {
            turns.reduce(0) { $0 + passedCount(ConversationGrader.grade(conversation, turns: $1).turns[0].checks) }
        }
        if runnerOnly {
            return print(
                "graded \(turns.count) answers × \(checks.count) checks as a run does in \(runner.cpu) s CPU (\(runner.passed) passed)")
        }
        let everyCore = onEveryCore()
        // The evaluation alone, for the share the rest takes.
        let subjects = turns.map { GradingSubject(answer: $0[0].answer ?? "", metrics: metrics) }
        let evaluation = timed { subjects.reduce(0) { $0 + passedCount(Check.grade(checks, $1).verdicts) } }
        print(
            "graded \(turns.count) answers (\(characters / turns.count) characters on average) × \(checks.count) checks "
                + "as a run does in \(runner.wall) s wall, \(runner.cpu) s CPU (\(runner.passed) verdicts passed); "
                + "the checks' evaluation alone \(evaluation.wall) s wall")
        print(
            "as `chateval grade` grades them (conversations on \(cores) threads): \(everyCore.wall) s wall, "
                + "\(everyCore.cpu) s CPU (\(everyCore.passed) verdicts passed)")

        timeLargeAnswer(clock)
        if perCheck {
            for check in checks {
                let t = clock.measure { for subject in subjects { _ = subject.sharingOneBudget { check.evaluate(subject) } } }
                print(check.type, t)
            }
        }
    }

    /// How many of `verdicts` passed, each read in place: `filter(\.passed)` copied every passing
    /// verdict into a new array, retaining its strings (26 ms of the 0.30 s two-core figure,
    /// 2026-12-01), work of the bench's own tally rather than of grading.
    static func passedCount(_ verdicts: [Verdict]?) -> Int {
        guard let verdicts else { return 0 }
        var passed = 0
        for index in verdicts.indices where verdicts[index].passed { passed += 1 }
        return passed
    }

    /// One check type alone, 20 times over answers whose derived forms it reads are already
    /// computed (for a profile of that check, without the rest of the bench: the warm-up grades
    /// that check alone too).
    static func timeOne(_ type: String, of checks: [Check], over turns: [[ReplayedTurn]], metrics: TurnMetrics) {
        guard let check = checks.first(where: { $0.type == type }) else { return print("no check of type \(type)") }
        let subjects = turns.map { GradingSubject(answer: $0[0].answer ?? "", metrics: metrics) }
        _ = subjects.map { Check.grade([check], $0) }
        let t = ContinuousClock().measure {
            for _ in 0..<20 { for subject in subjects { _ = subject.sharingOneBudget { check.evaluate(subject) } } }
        }
        print(type, "×20", t)
    }

    /// Every verdict as a run records it, one JSON line each: to diff against another build.
    static func printEveryVerdict(_ conversation: SuiteConversation, _ turns: [[ReplayedTurn]]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for turn in turns {
            for verdict in ConversationGrader.grade(conversation, turns: turn).turns[0].checks ?? [] {
                print((try? encoder.encode(verdict)).map { String(decoding: $0, as: UTF8.self) } ?? "(not encoded)")
            }
        }
    }
}
