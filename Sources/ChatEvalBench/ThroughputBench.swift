import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalToolKit
import Foundation

/// ChatEval's prefill and decode against llama-bench on the same model, threads and depth.
///
/// A ChatEval turn renders a chat prompt of P tokens, evaluates it, then decodes N tokens (the
/// end-of-generation token ignored), each at depth P + i. llama-bench's matching tests are
/// `pp P` (P tokens evaluated into an empty context) and `tg N @ d P` (N tokens decoded after P
/// already in the context). Runs alternate, which goes first alternating too; every ratio is the
/// median of per-pair ratios, with its 95% interval (`MedianInterval`, from 6 pairs): a goal is
/// met or missed only where the whole interval says so; beside it, each side's run-to-run spread.
struct ThroughputBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "throughput", abstract: "Prefill and decode against llama-bench at the same depth.")

    @OptionGroup var options: ModelOptions
    @Option(help: "Path of llama-bench built from the same llama.cpp tree.") var llamaBench: String
    @Option(help: "Prompt tokens (about; the rendered chat prompt's real length is used).") var promptTokens: Int = 512
    @Option(help: "Generated tokens.") var generatedTokens: Int = 128
    @Option(help: "Alternating pairs.") var repetitions: Int = 7
    @Option(help: "The ratio a figure must reach.") var goal: Double = 0.97
    @Option(help: "ChatEval's context size (a run's default is 4096; llama-bench sizes its context to the test).")
    var ctxSize: Int = 4096
    @Option(
        help: ArgumentHelp(
            "A second ChatEval side with this context size, in the same alternation: ChatEval against itself at two "
                + "context sizes, to tell the engine's cost of a larger context from the harness's.",
            valueName: "tokens"))
    var alsoCtxSize: Int?
    @Option(
        help: ArgumentHelp(
            "What the second ChatEval side caches for a sliding-window model's windowed layers: full (a run's default, "
                + "for reuse) or window (as llama-bench and llama-server keep).",
            valueName: "full|window"))
    var alsoSlidingWindowCache: SlidingWindowCache = .full
    @Option(
        help: ArgumentHelp(
            "A second ChatEval side (at --also-ctx-size, or else --ctx-size) that streams its text every S seconds "
                + "instead of every \(ChunkCoalescer.interval) s: each chunk wakes the reader's task beside the decoding threads.",
            valueName: "seconds"))
    var alsoStreamInterval: Double?

    /// The second side's context size, when there is a second side.
    private var otherContextSize: Int? { alsoCtxSize ?? alsoStreamInterval.map { _ in ctxSize } }

    func validate() throws {
        guard FileManager.default.isExecutableFile(atPath: llamaBench) else {
            throw ValidationError("no llama-bench at \(llamaBench); `make bench` builds it")
        }
        guard repetitions >= 1, promptTokens >= 16, generatedTokens >= 2 else {
            throw ValidationError("repetitions ≥ 1, prompt ≥ 16, generated ≥ 2")
        }
        if let alsoCtxSize, (alsoCtxSize == ctxSize && alsoStreamInterval == nil) || alsoCtxSize < promptTokens + generatedTokens {
            throw ValidationError(
                "--also-ctx-size \(alsoCtxSize): give a context size other than --ctx-size (\(ctxSize)) that holds the prompt "
                    + "and the generated tokens (at least \(promptTokens + generatedTokens))")
        }
        if let alsoStreamInterval, !(alsoStreamInterval >= 0) || alsoStreamInterval == ChunkCoalescer.interval {
            throw ValidationError(
                "--also-stream-interval \(alsoStreamInterval): give 0 s or more, other than the first side's \(ChunkCoalescer.interval) s")
        }
    }

    /// The second side's stream interval.
    private var otherStreamInterval: Double { alsoStreamInterval ?? ChunkCoalescer.interval }

    /// What sets a ChatEval side apart in the report: its context size, and its stream interval
    /// when the sides differ in it.
    private func sideSetting(contextSize: Int, streamInterval: Double) -> String {
        "\(contextSize) tokens" + (alsoStreamInterval == nil ? "" : ", text every \(streamInterval) s")
    }

    func run() async throws {
        options.announce("Throughput against llama-bench")
        let runtime = try options.runtime(contextSize: ctxSize)
        let other = try otherContextSize.map {
            try options.runtime(contextSize: $0, slidingWindowCache: alsoSlidingWindowCache, streamInterval: otherStreamInterval)
        }
        let messages = try promptOfAbout(promptTokens, runtime)
        let depth = runtime.promptTokens(for: messages)?.count ?? promptTokens
        let turnOptions = GenerationOptions(maxTokens: generatedTokens, ignoreEndOfGeneration: true)
        print(
            "a \(depth)-token chat prompt, then \(generatedTokens) tokens, in a \(runtime.identity.contextSize)-token context; "
                + "llama-bench pp\(depth) and tg\(generatedTokens) @ d\(depth); \(repetitions) alternating pairs, each side warmed up first"
        )
        if let other {
            print(
                "and ChatEval in a \(other.identity.contextSize)-token context (windowed layers: \(alsoSlidingWindowCache.rawValue) "
                    + "cache\(alsoStreamInterval.map { "; text streamed every \($0) s" } ?? "")) as a third side: each round runs the "
                    + "three in one of their six orders, in turn")
        }

        // One turn unmeasured first, as llama-bench warms up before each of its runs: the first
        // evaluation after loading also pays for touching the context's buffers.
        for side in [runtime] + (other.map { [$0] } ?? []) { _ = try await freshTurn(side, messages, turnOptions) }
        let pairs = try await rounds(runtime, other, messages: messages, depth: depth, turnOptions)
        let prefill = pairs.map { ($0.reference.prompt, $0.turn.prefillTokensPerSecond ?? 0) }
        let decode = pairs.map { ($0.reference.decode, $0.turn.decodeTokensPerSecond ?? 0) }
        var table = TextTable([
            .init("tokens/s", .left), .init("llama-bench"), .init("spread"), .init("ChatEval"), .init("spread"),
            .init("ratio (median of pairs)"), .init("95% interval"), .init("goal"), .init("", .left),
        ])
        for (name, values) in [("prefill, pp\(depth)", prefill), ("decode, tg\(generatedTokens) @ d\(depth)", decode)] {
            let ratios = values.map { $0.1 / $0.0 }
            // Met or missed only where the median's whole interval says so: a median of a few
            // noisy pairs on the wrong side of the goal is not a miss.
            let interval = Self.intervalText(ratios, of: "pairs")
            let verdict = MedianInterval.verdict(ratios, atLeast: goal)
            table.add([
                name, Format.rate(median(values.map(\.0))), spread(values.map(\.0)), Format.rate(median(values.map(\.1))),
                spread(values.map(\.1)), String(format: "%.3f×", median(ratios)), interval, String(format: "≥ %.2f×", goal),
                verdict == .met ? "met" : verdict == .missed ? "MISSED" : "undecided: more pairs (--repetitions) or a quieter machine",
            ])
        }
        print("\n" + table.render(indent: "   "))
        if let other {
            printSecondSideEffect(
                pairs,
                settings: (
                    sideSetting(contextSize: ctxSize, streamInterval: ChunkCoalescer.interval),
                    sideSetting(contextSize: other.identity.contextSize, streamInterval: otherStreamInterval)
                ))
        }

        let split = runtime.memoryAttribution(alsoEngine: other.map { [$0] } ?? []) ?? MemoryAttribution.Split()
        let memory = runtime.identity.memory
        // This process is the bench's, not `chateval run`'s: it links neither libgit2 (and the
        // libraries it loads) nor the command line's code. `make bench` runs
        // `chateval run --memory-attribution` as well, for the product's own figure.
        print(
            "\n   memory of this bench process after the last turn "
                + "(resident, attributed by mapping; llama.cpp reserves more than it touches):"
        )
        let peakAboveReport = pairs.compactMap(\.turn.peakResidentBytes).max().flatMap { peak in memory?.engineBytes.map { peak - $0 } }
        print(
            MemoryAttributionTable.render(
                split, goalBytes: 30_000_000,  // issue 46's goal
                extraRows: [
                    ("llama.cpp's report: model + KV + compute + output", memory?.engineBytes),
                    ("peak RSS − that report (the issue's formula; reserved ≠ resident)", peakAboveReport),
                ], indent: "   "))
        // After the memory is read: the probe's formatting and threads would count as the harness's.
        roofline(runtime, depth: depth, chatEval: median(decode.map(\.1)), llamaBench: median(decode.map(\.0)))
    }

    /// One measured round: llama-bench's rates, ChatEval's turn, and the second ChatEval side's
    /// turn when there is one.
    private struct Round {
        var reference: (prompt: Double, decode: Double)
        var turn: TurnMetrics
        var other: TurnMetrics?
    }

    /// A turn on `runtime` from an empty session.
    private func freshTurn(_ runtime: LlamaChatRuntime, _ messages: [ChatMessage], _ options: GenerationOptions) async throws -> TurnMetrics
    {
        await runtime.resetSession()
        return try await measuredTurn(runtime, messages, options)
    }

    /// The measured rounds: llama-bench and ChatEval (and the second ChatEval side when there is
    /// one), in an order that changes every round.
    private func rounds(
        _ runtime: LlamaChatRuntime, _ other: LlamaChatRuntime?, messages: [ChatMessage], depth: Int, _ turnOptions: GenerationOptions
    ) async throws -> [Round] {
        var rounds: [Round] = []
        let orders = other == nil ? [[1, 0], [0, 1]] : [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]]
        for number in 1...repetitions {
            var reference: (prompt: Double, decode: Double)?
            var turn: TurnMetrics?
            var otherTurn: TurnMetrics?
            for side in orders[(number - 1) % orders.count] {
                switch side {
                case 0: reference = try await referenceRun(depth: depth)
                case 1: turn = try await freshTurn(runtime, messages, turnOptions)
                default:
                    if let other { otherTurn = try await freshTurn(other, messages, turnOptions) }
                }
            }
            guard let reference, let turn else { continue }
            rounds.append(Round(reference: reference, turn: turn, other: otherTurn))
            print(
                String(
                    format: "   pair %d: llama-bench pp %.1f, tg@d %.1f | ChatEval prefill %.1f, decode %.1f tokens/s",
                    number, reference.prompt, reference.decode, turn.prefillTokensPerSecond ?? 0, turn.decodeTokensPerSecond ?? 0)
                    + (otherTurn.map {
                        String(
                            format: " | at %d: prefill %.1f, decode %.1f", other?.identity.contextSize ?? 0, $0.prefillTokensPerSecond ?? 0,
                            $0.decodeTokensPerSecond ?? 0)
                    } ?? ""))
        }
        return rounds
    }

    /// "lower–upper" of the 95% interval of the median of `ratios`, or why there is none.
    private static func intervalText(_ ratios: [Double], of what: String) -> String {
        MedianInterval(ratios).map { String(format: "%.3f–%.3f", $0.lower, $0.upper) } ?? "– (6 \(what) or more)"
    }

    /// ChatEval against itself in two settings (two context sizes, or two stream intervals),
    /// round by round, and the second side against llama-bench: when the first ratio's interval
    /// lies wholly on one side of 1, the setting itself costs that much (the same harness runs
    /// both sides). For the context size that is the engine's share of a gap to llama-bench, whose
    /// context is sized to its test; for the stream interval, the harness's. The reading names the
    /// first side, not "the larger": `--also-ctx-size` may be either side of `--ctx-size`.
    private func printSecondSideEffect(_ rounds: [Round], settings: (String, String)) {
        var table = TextTable([
            .init("ratio of rounds", .left), .init("prefill"), .init("95% interval"), .init("decode"), .init("95% interval"),
            .init("", .left),
        ])
        let prefillRate = { (turn: TurnMetrics) in turn.prefillTokensPerSecond ?? .nan }
        let decodeRate = { (turn: TurnMetrics) in turn.decodeTokensPerSecond ?? .nan }
        /// A row of per-round ratios; `below` and `above` say what an interval wholly on one side of 1 means.
        func row(_ name: String, _ prefill: [Double], _ decode: [Double], below: String, above: String) {
            let reading =
                switch MedianInterval.verdict(decode, atLeast: 1) {
                case .missed: "\(below) (the whole interval below 1)"
                case .met: "\(above) (the whole interval at or above 1)"
                case .undecided: "no difference shown"
                }
            table.add([
                name, String(format: "%.3f×", median(prefill)), Self.intervalText(prefill, of: "rounds"),
                String(format: "%.3f×", median(decode)), Self.intervalText(decode, of: "rounds"), "decode: " + reading,
            ])
        }
        let paired = rounds.compactMap { round in round.other.map { (round, $0) } }
        row(
            "ChatEval at \(settings.0) ÷ ChatEval at \(settings.1)", paired.map { prefillRate($0.turn) / prefillRate($1) },
            paired.map { decodeRate($0.turn) / decodeRate($1) }, below: "slower at \(settings.0)", above: "not slower at \(settings.0)")
        row(
            "ChatEval at \(settings.1) ÷ llama-bench", paired.map { prefillRate($1) / $0.reference.prompt },
            paired.map { decodeRate($1) / $0.reference.decode }, below: "below llama-bench", above: "at or above llama-bench")
        print("\n" + table.render(indent: "   "))
    }

    /// Decode as a share of the memory-bandwidth bound (`DecodeRoofline`), both sides, at the
    /// turn's mean decode depth, against this machine's probed bandwidth (cached per CPU).
    private func roofline(_ runtime: LlamaChatRuntime, depth: Int, chatEval: Double, llamaBench: Double) {
        guard let roofline = runtime.identity.memory?.roofline else {
            print("\n   roofline: not known (the engine did not report its model buffer, or the model its attention geometry)")
            return
        }
        let bandwidth = MemoryBandwidth.cached(threads: options.threads)
        let meanDepth = DecodeRoofline.meanDepth(promptTokens: depth, generatedTokens: generatedTokens)
        let bytes = Double(roofline.bytesPerToken(depth: meanDepth))
        let bound = roofline.boundTokensPerSecond(depth: meanDepth, bandwidth: bandwidth.bytesPerSecond) ?? 0
        let share = { (rate: Double) in roofline.share(decodeTokensPerSecond: rate, depth: meanDepth, bandwidth: bandwidth.bytesPerSecond) }
        print(
            String(
                format: "\n   roofline: memory read bandwidth %.1f GB/s (%d threads, probed %@ on %@, load %@); "
                    + "a token at mean depth %d reads %.1f MB (weights %.1f MB + KV %.1f MB), so decode is bound at %.0f tokens/s:\n"
                    + "   ChatEval decode %.1f tokens/s = %@ of the bound; llama-bench tg %.1f tokens/s = %@",
                bandwidth.bytesPerSecond / 1e9, bandwidth.threads, UTCTimestamp.iso8601(bandwidth.measuredAt), bandwidth.cpu,
                bandwidth.load.map { String(format: "%.1f", $0) } ?? "?", meanDepth, bytes / 1e6, Double(roofline.weightBytes) / 1e6,
                Double(roofline.kvBytesPerPosition * meanDepth) / 1e6, bound, chatEval, Format.percent(share(chatEval)), llamaBench,
                Format.percent(share(llamaBench))))
    }

    /// One llama-bench run of each matching test: pp at depth 0, tg at the prompt's depth.
    private func referenceRun(depth: Int) async throws -> (prompt: Double, decode: Double) {
        let prompt = try await llamaBenchRate(["-p", String(depth), "-n", "0", "-d", "0"])
        let decode = try await llamaBenchRate(["-p", "0", "-n", String(generatedTokens), "-d", String(depth)])
        return (prompt, decode)
    }

    private func llamaBenchRate(_ test: [String]) async throws -> Double {
        let arguments = ["-m", options.model, "-t", String(options.threads), "-r", "1", "-o", "json"] + test
        let outcome = try await ProcessRunner.run(URL(fileURLWithPath: llamaBench), arguments)
        guard outcome.status == 0,
            let rows = try? JSONDecoder().decode([LlamaBenchRow].self, from: Data(outcome.stdout.utf8)), let rate = rows.first?.avg_ts
        else {
            throw BenchError("llama-bench \(test.joined(separator: " ")) failed (status \(outcome.status)): \(outcome.stderr.suffix(2000))")
        }
        return rate
    }

    /// A single user message whose rendered prompt has about `target` tokens.
    private func promptOfAbout(_ target: Int, _ runtime: LlamaChatRuntime) throws -> [ChatMessage] {
        let sentence = "The river winds through the valley past old mills, orchards and quiet stone villages. "
        var text = ""
        while (runtime.promptTokens(for: [.user(text + sentence)])?.count ?? .max) <= target { text += sentence }
        return [.user(text)]
    }
}

private struct LlamaBenchRow: Decodable {
    let avg_ts: Double
}
