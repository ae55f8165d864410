import ChatEvalCore

/// What one answer's stream may hold in memory, so that every stream of a run fits together:
/// `run --concurrency N` shares 1 GiB between its N streams (1 MiB each at the most it allows,
/// 1024), and a stream alone keeps the bounds it always had (16 MiB for one event).
///
/// Each stream used to hold up to 16 MiB whatever the concurrency — one event, or the body
/// libcurl had read and the stream not yet — so that 256 streams could take 4.2 GB and 1024
/// about 17 GB. Now three bounds follow the stream's share: the body bytes libcurl holds unread
/// (past them its exchange waits, and TCP slows the server down), one line or event of the stream,
/// and the answer's text.
public struct StreamMemory: Sendable, Hashable {
    /// What the streams of a run share.
    public static let shared = 1 << 30
    /// The streams sharing it (the concurrency).
    public let streams: Int

    public init(streams: Int = 1) { self.streams = max(streams, 1) }

    /// The stream's share: `shared` over the streams, at most 256 MiB.
    public var budget: Int { min(256 << 20, Self.shared / streams) }
    /// Body bytes libcurl may hold that the stream has not read yet: 1 MiB alone, 128 KiB at 1024.
    public var unreadBytes: Int { min(1 << 20, budget / 8) }
    /// Longest line, and most `data:` bytes of one event: 16 MiB alone, 64 KiB at 1024 (a chunk
    /// of one token is under a kilobyte, llama-server's timings included).
    public var eventBytes: Int { min(16 << 20, budget / 16) }
    /// Most text of the answer held: 16 MiB alone, 128 KiB at 1024 (about 30,000 tokens of
    /// English). An answer that reaches it before its `max_tokens` bound fails (`answerPastShare`).
    public var answerBytes: Int { min(16 << 20, budget / 8) }

    /// The failure of an answer whose text reached `answerBytes` before its `max_tokens` bound: it
    /// is not kept cut short, as if the model had stopped there, but failed, naming the share.
    func answerPastShare(_ bytes: Int) -> RuntimeFailure {
        RuntimeFailure(
            .invalidResponse,
            "the answer reached \(ByteCount.format(bytes)) of text before max_tokens, the bound of one stream of \(share) "
                + "(a lower --concurrency gives each stream more)")
    }

    /// "1 GiB shared by 1024 streams", for a failure's message.
    var share: String { streams == 1 ? "one stream alone" : "\(Self.shared >> 30) GiB shared by \(streams) streams" }
}
