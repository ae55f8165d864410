import ChatEvalCore

@testable import ChatEvalGrading

/// Builds a check, failing the test with the definition error if it cannot be built.
func makeCheck(_ type: String, _ arguments: CheckArgument.Map = [:]) throws -> Check {
    try CheckCatalogue.make(type: type, arguments: arguments)
}

/// The verdict of one check on an answer.
func verdict(_ type: String, _ arguments: CheckArgument.Map = [:], on answer: String) throws -> Verdict {
    try makeCheck(type, arguments).evaluate(GradingSubject(answer: answer))
}

/// The definition error a check construction throws, or nil when it builds.
func definitionError(_ type: String, _ arguments: CheckArgument.Map = [:]) -> CheckDefinitionError? {
    do {
        _ = try CheckCatalogue.make(type: type, arguments: arguments)
        return nil
    } catch {
        return error
    }
}

/// About a megabyte of varied text: ASCII sentences with accents, CJK and emoji mixed in.
let megabyteAnswer: String = {
    let unit = "The café serves crème brûlée. 日本語の文。 Emoji 🎉 here, and numbers like 3.14! "
    let count = 1_000_000 / unit.utf8.count + 1
    return String(repeating: unit, count: count)
}()

func metrics(
    ttft: Double = 0.2, prefillTime: Double = 0.1, decodeTime: Double = 2, totalTime: Double = 2.3,
    prompt: Int = 1000, reused: Int = 500, generated: Int = 101, stop: StopReason = .endOfGeneration,
    peak: Int? = 600_000_000
) -> TurnMetrics {
    TurnMetrics(
        promptTokens: prompt, reusedTokens: reused, generatedTokens: generated, timeToFirstToken: ttft,
        prefillTime: prefillTime, decodeTime: decodeTime, totalTime: totalTime, interTokenLatencies: [],
        stopReason: stop, peakResidentBytes: peak)
}
