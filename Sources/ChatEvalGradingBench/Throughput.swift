import ChatEvalCore
import ChatEvalGrading
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Grading throughput: synthetic answers against a 20-check turn.
enum Throughput {
    /// CPU time of this process (user + system), in seconds: less sensitive than wall time to other
    /// processes sharing the machine.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

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

    static var checks: [Check] {
        [
            make("contains", ["value": "answer"]),
            make("icontains", ["value": "THE QUICK"]),
            make("not-contains", ["value": "As an AI"]),
            make("contains-any", ["value": ["fox", "dog", "cat"]]),
            make("regex", ["value": #"\b\d+(\.\d+)?%"#]),
            make("not-regex", ["value": #"(?i)lorem\s+ipsum"#]),
            make("starts-with", ["value": "The", "trim": true]),
            make("length", ["unit": "words", "min": 20, "max": 400]),
            make("not-refusal"),
            make("is-json"),
            make("keywords:existence", ["keywords": ["fox", "milk"]]),
            make("keywords:frequency", ["keyword": "the", "frequency": 3, "relation": "at least"]),
            make("length_constraints:number_sentences", ["num_sentences": 5, "relation": "at least"]),
            make("detectable_format:number_bullet_lists", ["num_bullets": 2]),
            make("detectable_format:number_highlighted_sections", ["num_highlights": 1]),
            make("punctuation:no_comma"),
            make("detectable_content:postscript", ["postscript_marker": "P.S."]),
            make("ttft", ["max": 0.5]),
            make("decode-tps", ["min": 20]),
            make("all", ["checks": [["type": "stop-reason", "value": "eog"], ["type": "generated-tokens", "max": 512]]]),
        ].compactMap { $0 }
    }

    /// `change_case:capital_word_frequency` (NLTK's word tokenizer: Punkt, then 33 regex
    /// substitutions per sentence) on a 5 MB answer.
    static func timeLargeAnswer(_ clock: ContinuousClock) {
        let unit = "The café serves crème brûlée. 日本語の文。 Emoji 🎉 here, and NUMBERS like 3.14! I CAN'T GO, Mr. Smith said. "
        let answer = GradingSubject(answer: String(repeating: unit, count: 5_000_000 / unit.utf8.count + 1))
        guard let check = make("change_case:capital_word_frequency", ["capital_frequency": 3, "capital_relation": "at least"]) else { return }
        var verdict: Verdict?
        let cpuStart = cpuSeconds()
        let elapsed = clock.measure { verdict = check.evaluate(answer) }
        let cpu = cpuSeconds() - cpuStart
        print("change_case:capital_word_frequency on a \(answer.answer.utf8.count / 1_000_000) MB answer in \(elapsed) wall, "
              + "\(cpu) s CPU (\(verdict?.passed == true ? "passed" : "failed"))")
    }

    /// Grades `answerCount` answers and prints the time taken; `only` times one check type 20
    /// times over, `perCheck` each check separately.
    static func run(answerCount: Int, only: String?, perCheck: Bool) {
        let checks = checks
        let metrics = TurnMetrics(promptTokens: 900, reusedTokens: 600, generatedTokens: 200, timeToFirstToken: 0.21,
                                  prefillTime: 0.18, decodeTime: 4.2, totalTime: 4.45, interTokenLatencies: [],
                                  stopReason: .endOfGeneration, peakResidentBytes: 700_000_000)
        let subjects = (0..<answerCount).map { GradingSubject(answer: answer($0), metrics: metrics) }
        let characters = subjects.reduce(0) { $0 + $1.answer.count }

        let clock = ContinuousClock()
        var passed = 0
        // Build lazily initialised tables (Punkt model, NLTK rules) before timing.
        _ = Check.grade(checks, subjects[0])
        let cpuStart = cpuSeconds()
        let elapsed = clock.measure {
            for subject in subjects {
                passed += Check.grade(checks, subject).verdicts.filter(\.passed).count
            }
        }
        let cpu = cpuSeconds() - cpuStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("graded \(subjects.count) answers (\(characters / subjects.count) characters on average) × \(checks.count) checks "
              + "in \(seconds) s wall, \(cpu) s CPU (\(passed) verdicts passed)")

        timeLargeAnswer(clock)
        if let only, let check = checks.first(where: { $0.type == only }) {
            let t = clock.measure { for _ in 0..<20 { for subject in subjects { _ = check.evaluate(subject) } } }
            print(only, "×20", t)
        }
        if perCheck {
            for check in checks {
                let t = clock.measure { for subject in subjects { _ = check.evaluate(subject) } }
                print(check.type, t)
            }
        }
    }
}
