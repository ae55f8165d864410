import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRuntime
import Foundation

/// Session reuse against cold turns on the same 8-turn conversation, alternating.
struct ReuseBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reuse", abstract: "Session reuse against cold re-evaluation of every turn.")

    @OptionGroup var options: ModelOptions
    @Option(help: "Alternating runs of each.") var repetitions: Int = 3
    @Option(help: "Tokens generated per turn.") var turnTokens: Int = 32

    func run() async throws {
        options.announce("Session reuse against cold turns")
        let runtime = try options.runtime()
        let script = ConversationScript(
            id: "eight-turns", systemPrompt: "You are a helpful travel assistant. Keep answers short.",
            options: GenerationOptions(maxTokens: turnTokens, ignoreEndOfGeneration: true),
            userMessages: [
                "I want to visit Portugal in May. Where should I start?", "How many days would you spend in Lisbon?",
                "What is a good day trip from Lisbon?", "How do I get to Porto from there?", "What food should I try in Porto?",
                "Is the Douro valley worth a visit?", "How should I get back to the airport?", "Summarise the whole plan in three lines.",
            ].map { TemplateText(literal: $0) })
        print("an 8-turn conversation, \(turnTokens) tokens per answer, \(repetitions) alternating runs of each")

        var pairs: [(session: [TurnMetrics], cold: [TurnMetrics])] = []
        for _ in 1...max(repetitions, 1) {
            let session = try await replayed(script, runtime, .session)
            let cold = try await replayed(script, runtime, .cold)
            pairs.append((session, cold))
        }

        let example = pairs[0].session
        var turns = TextTable([
            .init("turn"), .init("prompt"), .init("added since last turn"), .init("reused"), .init("evaluated"),
            .init("evaluated cold"), .init("TTFT"), .init("TTFT cold"),
        ])
        for (index, turn) in example.enumerated() {
            let added = index == 0 ? turn.promptTokens : turn.promptTokens - example[index - 1].promptTokens
            let cold = pairs[0].cold[index]
            turns.add([
                String(index + 1), String(turn.promptTokens), String(added), turn.reusedTokens.map(String.init) ?? "?",
                turn.evaluatedTokens.map(String.init) ?? "?", cold.evaluatedTokens.map(String.init) ?? "?",
                Format.duration(turn.timeToFirstToken), Format.duration(cold.timeToFirstToken),
            ])
        }
        print("\n" + turns.render(indent: "   "))

        let later = 1..<script.userMessages.count
        let evaluatedSession = pairs[0].session[later].reduce(0) { $0 + ($1.evaluatedTokens ?? 0) }
        let evaluatedCold = pairs[0].cold[later].reduce(0) { $0 + ($1.evaluatedTokens ?? 0) }
        func meanTTFT(_ turns: [TurnMetrics]) -> Double { turns[later].reduce(0) { $0 + $1.timeToFirstToken } / Double(later.count) }
        let ratios = pairs.map { meanTTFT($0.cold) / meanTTFT($0.session) }
        var summary = TextTable([.init("turns 2–8", .left), .init("session"), .init("cold"), .init("cold / session")])
        summary.add([
            "prompt tokens evaluated", String(evaluatedSession), String(evaluatedCold),
            String(format: "%.1f×", Double(evaluatedCold) / Double(max(evaluatedSession, 1))),
        ])
        summary.add([
            "mean TTFT (median of runs)", Format.duration(median(pairs.map { meanTTFT($0.session) })),
            Format.duration(median(pairs.map { meanTTFT($0.cold) })),
            String(
                format: "%.1f× (runs: %@)", median(ratios),
                ratios.map { String(format: "%.1f×", $0) }.joined(separator: ", ")),
        ])
        print("\n" + summary.render(indent: "   "))
    }

    private func replayed(_ script: ConversationScript, _ runtime: LlamaChatRuntime, _ mode: CacheMode) async throws -> [TurnMetrics] {
        let results = await ConversationReplayer(runtime: runtime, cacheMode: mode).replay(script)
        let metrics = results.compactMap(\.metrics)
        guard metrics.count == script.userMessages.count else {
            throw BenchError("a \(mode.rawValue) turn failed: \(results.compactMap(\.failure).first?.description ?? "unknown")")
        }
        return metrics
    }
}
