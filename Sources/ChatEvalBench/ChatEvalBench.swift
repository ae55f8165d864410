import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRuntime
import Foundation

/// `chateval-bench`: ChatEval's turn loop measured against llama.cpp's own llama-bench in one run,
/// and session reuse measured against cold re-evaluation on the same conversation.
///
/// Runs alternate (A B A B ...) so that drift of a shared machine hits both sides alike; every
/// figure is a median, every comparison a median of per-pair ratios.
@main
struct ChatEvalBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chateval-bench",
        abstract: "Benchmark ChatEval's llama.cpp runtime against llama-bench, and session reuse against cold turns.")

    @Option(help: "Path of llama-bench built from the same llama.cpp tree.") var llamaBench: String
    @Option(help: "GGUF model.") var model: String
    @Option(help: "Chat template for the model.") var chatTemplate: String = "gemma"
    @Option(help: "Threads for both sides.") var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Prompt tokens of the throughput test.") var promptTokens: Int = 512
    @Option(help: "Generated tokens of the throughput test.") var generatedTokens: Int = 128
    @Option(help: "Alternating repetitions of the throughput test.") var repetitions: Int = 7
    @Option(help: "Alternating repetitions of the reuse-vs-cold conversation.") var conversationRepetitions: Int = 3
    @Option(help: "Tokens generated per turn of the conversation.") var turnTokens: Int = 32

    func validate() throws {
        guard threads >= 1, repetitions >= 1, conversationRepetitions >= 1, promptTokens >= 16, generatedTokens >= 2 else {
            throw ValidationError("threads, repetitions and token counts must be positive (prompt ≥ 16, generated ≥ 2)")
        }
        guard FileManager.default.isExecutableFile(atPath: llamaBench) else {
            throw ValidationError("no llama-bench at \(llamaBench); `make bench` builds it")
        }
    }

    func run() async throws {
        let runtime = try LlamaChatRuntime(.init(
            modelPath: model, chatTemplate: chatTemplate, contextSize: 4096, batchSize: 512, threads: threads,
            build: ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_BUILD"]))
        print(RunHeader.render(runtime.identity, cacheMode: .session))
        print("\nNothing else should run on this machine now: a compile on the same cores cuts decode speed tenfold.\n")
        try await throughput(runtime)
        try await reuseAgainstCold(runtime)
    }

    // MARK: Throughput against llama-bench

    private func throughput(_ runtime: LlamaChatRuntime) async throws {
        let messages = try promptOfAbout(promptTokens, runtime)
        let actualPromptTokens = runtime.promptTokens(for: messages)?.count ?? 0
        print("1. Throughput: llama-bench pp\(promptTokens)/tg\(generatedTokens) vs a ChatEval turn (\(actualPromptTokens)-token prompt, \(generatedTokens) generated, greedy), \(threads) threads, \(repetitions) alternating runs")

        var pairs: [(reference: LlamaBenchResult, turn: TurnMetrics)] = []
        for repetition in 1...repetitions {
            let reference = try runLlamaBench()
            await runtime.resetSession()
            let turn = try await measuredTurn(runtime, messages, GenerationOptions(maxTokens: generatedTokens, ignoreEndOfGeneration: true))
            pairs.append((reference, turn))
            print(String(format: "   run %d: llama-bench pp %.1f tg %.1f tg@d%d %.1f | ChatEval prefill %.1f decode %.1f t/s",
                         repetition, reference.promptPerSecond, reference.generationPerSecond, promptTokens, reference.deepGenerationPerSecond,
                         turn.prefillTokensPerSecond ?? 0, turn.decodeTokensPerSecond ?? 0))
        }
        var table = TextTable([.init("tokens/s", .left), .init("llama-bench"), .init("ChatEval"), .init("ratio (median of pairs)"), .init("target")])
        let prefillRatio = median(pairs.map { ($0.turn.prefillTokensPerSecond ?? 0) / $0.reference.promptPerSecond })
        let decodeRatio = median(pairs.map { ($0.turn.decodeTokensPerSecond ?? 0) / $0.reference.generationPerSecond })
        let deepDecodeRatio = median(pairs.map { ($0.turn.decodeTokensPerSecond ?? 0) / $0.reference.deepGenerationPerSecond })
        table.add(["prefill", Format.rate(median(pairs.map(\.reference.promptPerSecond))),
                   Format.rate(median(pairs.map { $0.turn.prefillTokensPerSecond ?? 0 })), String(format: "%.3f×", prefillRatio), "≥ 0.95×"])
        table.add(["decode", Format.rate(median(pairs.map(\.reference.generationPerSecond))),
                   Format.rate(median(pairs.map { $0.turn.decodeTokensPerSecond ?? 0 })), String(format: "%.3f×", decodeRatio), "≥ 0.98×"])
        table.add(["decode vs tg@d\(promptTokens)", Format.rate(median(pairs.map(\.reference.deepGenerationPerSecond))),
                   Format.rate(median(pairs.map { $0.turn.decodeTokensPerSecond ?? 0 })), String(format: "%.3f×", deepDecodeRatio), "(same depth)"])
        print("\n" + table.render(indent: "   ") + "\n")
    }

    /// A single user message whose rendered prompt has about `target` tokens.
    private func promptOfAbout(_ target: Int, _ runtime: LlamaChatRuntime) throws -> [ChatMessage] {
        let sentence = "The river winds through the valley past old mills, orchards and quiet stone villages. "
        var text = ""
        while (runtime.promptTokens(for: [.user(text + sentence)])?.count ?? .max) <= target { text += sentence }
        var words = sentence.split(separator: " ")
        while let word = words.first, (runtime.promptTokens(for: [.user(text + word + " ")])?.count ?? .max) <= target {
            text += word + " "
            words.removeFirst()
        }
        return [.user(text)]
    }

    private func runLlamaBench() throws -> LlamaBenchResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: llamaBench)
        // Two rows more than pp/tg: tg at depth promptTokens, as a chat turn decodes after its prompt.
        process.arguments = ["-m", model, "-p", String(promptTokens), "-n", String(generatedTokens), "-d", "0,\(promptTokens)",
                             "-t", String(threads), "-r", "1", "-o", "json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("llama-bench exited with status \(process.terminationStatus)") }
        let rows = try JSONDecoder().decode([LlamaBenchRow].self, from: data)
        guard let prompt = rows.first(where: { $0.n_prompt > 0 && $0.n_gen == 0 && $0.n_depth == 0 }),
              let generation = rows.first(where: { $0.n_gen > 0 && $0.n_prompt == 0 && $0.n_depth == 0 }),
              let deepGeneration = rows.first(where: { $0.n_gen > 0 && $0.n_prompt == 0 && $0.n_depth > 0 }) else {
            throw BenchError("llama-bench printed no pp/tg rows")
        }
        return LlamaBenchResult(promptPerSecond: prompt.avg_ts, generationPerSecond: generation.avg_ts, deepGenerationPerSecond: deepGeneration.avg_ts)
    }

    // MARK: Session reuse against cold turns

    private func reuseAgainstCold(_ runtime: LlamaChatRuntime) async throws {
        let script = ConversationScript(
            id: "eight-turns", systemPrompt: "You are a helpful travel assistant. Keep answers short.",
            options: GenerationOptions(maxTokens: turnTokens, ignoreEndOfGeneration: true),
            userMessages: [
                "I want to visit Portugal in May. Where should I start?",
                "How many days would you spend in Lisbon?",
                "What is a good day trip from Lisbon?",
                "How do I get to Porto from there?",
                "What food should I try in Porto?",
                "Is the Douro valley worth a visit?",
                "How should I get back to the airport?",
                "Summarise the whole plan in three lines.",
            ].map { TemplateText(literal: $0) })
        print("2. Session reuse vs cold: an 8-turn conversation, \(turnTokens) tokens per answer, \(conversationRepetitions) alternating runs of each")

        var pairs: [(session: [TurnMetrics], cold: [TurnMetrics])] = []
        for _ in 1...conversationRepetitions {
            let session = try await replayed(script, runtime, .session)
            let cold = try await replayed(script, runtime, .cold)
            pairs.append((session, cold))
        }

        let example = pairs[0].session
        var turns = TextTable([.init("turn"), .init("prompt"), .init("added since last turn"), .init("reused"), .init("evaluated"),
                               .init("evaluated cold"), .init("TTFT"), .init("TTFT cold")])
        for (index, turn) in example.enumerated() {
            let added = index == 0 ? turn.promptTokens : turn.promptTokens - example[index - 1].promptTokens
            let cold = pairs[0].cold[index]
            turns.add([String(index + 1), String(turn.promptTokens), String(added), String(turn.reusedTokens ?? 0), String(turn.evaluatedTokens ?? 0),
                       String(cold.evaluatedTokens ?? 0), Format.duration(turn.timeToFirstToken), Format.duration(cold.timeToFirstToken)])
        }
        print("\n" + turns.render(indent: "   "))

        let laterTurns = 1..<8
        let evaluatedSession = pairs[0].session[laterTurns].reduce(0) { $0 + ($1.evaluatedTokens ?? 0) }
        let evaluatedCold = pairs[0].cold[laterTurns].reduce(0) { $0 + ($1.evaluatedTokens ?? 0) }
        func meanTTFT(_ turns: [TurnMetrics]) -> Double { turns[laterTurns].reduce(0) { $0 + $1.timeToFirstToken } / Double(laterTurns.count) }
        let ttftRatios = pairs.map { meanTTFT($0.cold) / meanTTFT($0.session) }
        var summary = TextTable([.init("turns 2–8", .left), .init("session"), .init("cold"), .init("cold / session"), .init("target")])
        summary.add(["prompt tokens evaluated", String(evaluatedSession), String(evaluatedCold),
                     String(format: "%.1f×", Double(evaluatedCold) / Double(max(evaluatedSession, 1))), "only new tokens"])
        summary.add(["mean TTFT (median of runs)", Format.duration(median(pairs.map { meanTTFT($0.session) })),
                     Format.duration(median(pairs.map { meanTTFT($0.cold) })), String(format: "%.1f×", median(ttftRatios)), "≥ 4×"])
        print("\n" + summary.render(indent: "   "))
        print(String(format: "   TTFT ratio per run: %@", ttftRatios.map { String(format: "%.1f×", $0) }.joined(separator: ", ")))
    }

    private func replayed(_ script: ConversationScript, _ runtime: LlamaChatRuntime, _ mode: CacheMode) async throws -> [TurnMetrics] {
        let results = await ConversationReplayer(runtime: runtime, cacheMode: mode).replay(script)
        let metrics = results.compactMap(\.metrics)
        guard metrics.count == script.userMessages.count else {
            throw BenchError("a \(mode.rawValue) turn failed: \(results.compactMap(\.failure).first?.description ?? "unknown")")
        }
        return metrics
    }

    private func measuredTurn(_ runtime: LlamaChatRuntime, _ messages: [ChatMessage], _ options: GenerationOptions) async throws -> TurnMetrics {
        var metrics: TurnMetrics?
        for try await event in runtime.respond(to: messages, options: options) {
            if case .info(let info) = event { metrics = info }
        }
        guard let metrics else { throw BenchError("the turn reported no measurements") }
        return metrics
    }
}

private struct LlamaBenchRow: Decodable {
    let n_prompt: Int
    let n_gen: Int
    let n_depth: Int
    let avg_ts: Double
}

private struct LlamaBenchResult {
    let promptPerSecond: Double
    let generationPerSecond: Double
    /// Generation after `depth` tokens already in the context (`tg128 @ d512`).
    let deepGenerationPerSecond: Double
}

private struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private func median(_ values: [Double]) -> Double { Distribution(values)?.median ?? .nan }
