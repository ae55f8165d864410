/// How an answer is generated. The defaults give reproducible answers: greedy decoding
/// (temperature 0) with a fixed seed, so the same conversation yields the same text twice.
public struct GenerationOptions: Codable, Sendable, Hashable {
    /// Most tokens generated in one answer.
    public var maxTokens: Int
    /// 0 means greedy decoding (always the most likely token); above 0, sampling.
    public var temperature: Double
    /// Nucleus sampling mass, in (0, 1]; 1 disables it. Only used when sampling.
    public var topP: Double
    /// Sample among the k most likely tokens; 0 disables it. Only used when sampling.
    public var topK: Int
    /// Seed of the sampler; recorded with every run.
    public var seed: UInt32
    /// Generation stops before the first occurrence of any of these strings, which are not part of the answer.
    public var stop: [String]
    /// Keep generating past end-of-generation tokens (for throughput benchmarks only; like llama-server's `ignore_eos`).
    public var ignoreEndOfGeneration: Bool

    public static let defaultMaxTokens = 128
    public static let defaultSeed: UInt32 = 42
    /// Largest `maxTokens` and `topK` accepted: far beyond any context window or vocabulary in
    /// use, and within the 32-bit integers llama.cpp takes.
    public static let maximumTokens = 1 << 20
    public static let maximumTopK = 1 << 20

    public init(
        maxTokens: Int = GenerationOptions.defaultMaxTokens,
        temperature: Double = 0,
        topP: Double = 1,
        topK: Int = 0,
        seed: UInt32 = GenerationOptions.defaultSeed,
        stop: [String] = [],
        ignoreEndOfGeneration: Bool = false
    ) {
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.topP = topP
        self.topK = topK
        self.seed = seed
        self.stop = stop
        self.ignoreEndOfGeneration = ignoreEndOfGeneration
    }

    /// True when decoding picks the most likely token every step.
    public var isGreedy: Bool { temperature <= 0 }

    /// The options of repetition `repetition` (1-based; 0 is a warm-up): a sampled conversation's
    /// repetition k samples with `seed + k − 1` (wrapping), so a run's repetitions are k samples,
    /// not k copies of one, and a run repeats exactly on the same build; greedy decoding is left
    /// as it is (its seed draws nothing).
    public func forRepetition(_ repetition: Int) -> GenerationOptions {
        guard !isGreedy, repetition > 1 else { return self }
        var options = self
        options.seed = seed &+ UInt32(truncatingIfNeeded: repetition - 1)
        return options
    }

    /// Problems that make these options unusable, as sentences naming the field; empty when valid.
    public var problems: [String] {
        var found: [String] = []
        if maxTokens < 1 { found.append("max_tokens must be at least 1 (got \(maxTokens))") }
        if maxTokens > Self.maximumTokens { found.append("max_tokens must be at most \(Self.maximumTokens) (got \(maxTokens))") }
        if temperature < 0 || !temperature.isFinite { found.append("temperature must be 0 or more (got \(temperature))") }
        if !(topP > 0 && topP <= 1) { found.append("top_p must be in (0, 1] (got \(topP))") }
        if topK < 0 { found.append("top_k must be 0 (off) or more (got \(topK))") }
        if topK > Self.maximumTopK { found.append("top_k must be at most \(Self.maximumTopK) (got \(topK))") }
        if stop.contains("") { found.append("stop strings must not be empty") }
        return found
    }
}
