import Testing

@testable import ChatEvalOpenAI

@Suite struct ServerSentEventParserTests {
    private func parse(_ pieces: [String]) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return try pieces.flatMap { try parser.feed(Array($0.utf8)) }
    }

    @Test func eventsEndAtABlankLineWhicheverLineEndingsTheServerUses() throws {
        let events = try parse(["data: one\n\ndata: two\r\n\r\ndata: three\r\rdata: four\n\n"])
        #expect(events.map(\.data) == ["one", "two", "three", "four"])
    }

    @Test func anEventSplitAcrossBuffersIsDeliveredWhole() throws {
        let events = try parse(["da", "ta: {\"a\":", "1}\r", "\n", "\r\n"])
        #expect(events == [ServerSentEvent(type: nil, data: "{\"a\":1}")])
    }

    @Test func dataLinesJoinWithLineFeedsCommentsAndOtherFieldsAreSkipped() throws {
        let events = try parse([": keep-alive\nid: 7\nretry: 100\nevent: error\ndata: first\ndata:second\n\n"])
        #expect(events == [ServerSentEvent(type: "error", data: "first\nsecond")])
    }

    @Test func aByteOrderMarkAtTheStartIsSkippedAndAnUnfinishedEventIsNotDelivered() throws {
        var parser = ServerSentEventParser()
        let events = try parser.feed([0xEF, 0xBB, 0xBF] + Array("data: x\n\ndata: cut".utf8))
        #expect(events.map(\.data) == ["x"])
        #expect(parser.hasPendingEvent)
    }

    @Test func aBlankLineWithoutDataDispatchesNothing() throws {
        #expect(try parse(["\n\nevent: ping\n\n"]).isEmpty)
    }

    /// `data:` lines with no blank line grew one event without bound (only a line was bounded).
    @Test func oneEventIsBoundedAsALineIs() throws {
        var parser = ServerSentEventParser()
        let line = Array(("data: " + String(repeating: "x", count: (1 << 20) - 7) + "\n").utf8)
        let error = #expect(throws: (any Error).self) {
            for _ in 0..<17 { _ = try parser.feed(line) }
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("16 MiB"))
    }

    /// Comments are how a server says it is alive: counted, for the stall bound.
    @Test func commentsAreCounted() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array(": keep-alive\n\n:\ndata: x\n\n".utf8)).map(\.data) == ["x"])
        #expect(parser.comments == 2)
    }
}
