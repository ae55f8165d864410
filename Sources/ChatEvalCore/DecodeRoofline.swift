/// Decode measured against the memory-bandwidth bound.
///
/// Generating one token reads every weight once (both shipped models use their embedding table
/// as the output layer, so even the embeddings are read whole; for a model with a separate
/// output layer this counts the embedding table too, an upper bound) and the KV cache of every
/// earlier position. At `B` bytes per second of memory bandwidth, no engine decodes faster than
/// `B / bytesPerToken` tokens per second; the share is the measured rate over that bound. A
/// sliding-window model's windowed layers read at most their window, which this counts as full
/// depth: at depths past the window the bytes are overstated and the share with them.
public struct DecodeRoofline: Sendable, Hashable, Codable {
    /// The weights' bytes (the engine's report of its model buffer).
    public var weightBytes: Int
    /// KV-cache bytes per cached position, all layers, keys and values.
    public var kvBytesPerPosition: Int

    public init(weightBytes: Int, kvBytesPerPosition: Int) {
        self.weightBytes = weightBytes
        self.kvBytesPerPosition = kvBytesPerPosition
    }

    /// Bytes read to generate one token with `depth` positions already cached.
    public func bytesPerToken(depth: Int) -> Int { weightBytes + kvBytesPerPosition * max(depth, 0) }

    /// The mean depth of a turn's decoded tokens: the prompt, then half the answer on average.
    public static func meanDepth(promptTokens: Int, generatedTokens: Int) -> Int { promptTokens + max(generatedTokens, 0) / 2 }

    /// The fastest decode `bandwidth` bytes per second allows at `depth`; nil without a positive bandwidth.
    public func boundTokensPerSecond(depth: Int, bandwidth: Double) -> Double? {
        guard bandwidth > 0, bandwidth.isFinite, bytesPerToken(depth: depth) > 0 else { return nil }
        return bandwidth / Double(bytesPerToken(depth: depth))
    }

    /// `decodeTokensPerSecond` as a share of the bound (1 = at the bound; above 1 means the
    /// bandwidth figure is too low or the bytes too high); nil when either is unknown.
    public func share(decodeTokensPerSecond: Double?, depth: Int, bandwidth: Double) -> Double? {
        guard let rate = decodeTokensPerSecond, rate >= 0, rate.isFinite,
            let bound = boundTokensPerSecond(depth: depth, bandwidth: bandwidth)
        else {
            return nil
        }
        return rate / bound
    }
}
