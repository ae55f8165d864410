import ChatEvalRuntime
import Testing

@Suite struct ChunkCoalescerTests {
    /// Collects what a coalescer sends.
    final class Sent: @unchecked Sendable {
        var chunks: [String] = []
    }

    @Test func anIntervalOfZeroSendsEveryPieceAndAnInfiniteOneOnlyTheFlush() {
        let everyPiece = Sent()
        var eager = ChunkCoalescer(interval: 0) { everyPiece.chunks.append($0) }
        let atTheEnd = Sent()
        var lazy = ChunkCoalescer(interval: .infinity) { atTheEnd.chunks.append($0) }
        for piece in ["Hel", "lo", ", ", "world"] {
            eager.add(piece)
            lazy.add(piece)
        }
        #expect(everyPiece.chunks == ["Hel", "lo", ", ", "world"])
        #expect(atTheEnd.chunks.isEmpty)
        eager.flush()
        lazy.flush()
        #expect(everyPiece.chunks.count == 4, "nothing pending, nothing sent")
        #expect(atTheEnd.chunks == ["Hello, world"])
    }

    /// Whatever the timing, the chunks add up to the text, in order, none empty.
    @Test func theDefaultSendsTheWholeTextInOrder() {
        let sent = Sent()
        var coalescer = ChunkCoalescer { sent.chunks.append($0) }
        let pieces = (0..<200).map { "piece \($0); " }
        for piece in pieces { coalescer.add(piece) }
        coalescer.flush()
        #expect(sent.chunks.joined() == pieces.joined())
        #expect(!sent.chunks.contains(""))
    }
}
