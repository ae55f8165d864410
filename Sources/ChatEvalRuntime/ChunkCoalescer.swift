/// Gathers streamed text into chunks at most `interval` apart (plus a final one).
///
/// Yielding every token wakes the consumer's task once per token; on a machine whose cores all
/// run llama.cpp's workers (in process, or a llama-server beside the harness) that wake-up
/// competes with decoding. Measured in process on 2 cores: 3–5% of decode speed on 2026-11-22,
/// when llama.cpp was called from varying threads; no difference shown on 2026-11-30, with one
/// llama.cpp thread (a chunk per token against every 50 ms, Gemma 3 270M: 0.986×, 0.939–1.010,
/// 40 rounds of `chateval-bench throughput --also-stream-interval 0`). Runtimes take their
/// timings where tokens arrive, so coalescing changes none of them.
public struct ChunkCoalescer {
    /// The default: 20 chunks a second.
    public static let interval = 0.05
    /// Seconds between chunks.
    public let interval: Double
    private let send: (String) -> Void
    private var pending = ""
    private var sinceLastSend = Stopwatch()

    public init(interval: Double = ChunkCoalescer.interval, send: @escaping (String) -> Void) {
        self.interval = interval
        self.send = send
    }

    public mutating func add(_ text: String) {
        pending += text
        if sinceLastSend.elapsed >= interval { flush() }
    }

    public mutating func flush() {
        guard !pending.isEmpty else { return }
        send(pending)
        pending = ""
        sinceLastSend = Stopwatch()
    }
}
