import ChatEvalCore

/// An incremental parser of server-sent events, after the WHATWG HTML standard, §9.2.6
/// "Interpreting an event stream": lines end with CRLF, LF or CR; a blank line dispatches the
/// event; `data:` lines accumulate; lines starting with `:` are comments; a BOM at the start is
/// skipped; an event left unfinished when the stream ends is dropped.
///
/// Written here rather than taken from the mirror: mattt/EventSource 1.1.1 does not compile on
/// Linux (its client calls `URLSession.bytes(for:)`, which swift-corelibs-foundation lacks), and
/// its parser is an actor fed one byte per `await`, an actor hop per byte inside the timed loop.
/// This one takes whole buffers as libcurl delivers them and runs synchronously.
struct ServerSentEventParser: Sendable {
    /// Longest line accepted alone; a longer one means the body is not an event stream.
    static let maximumLineBytes = 16 << 20
    /// Most `data:` bytes one event may gather alone (lines that no blank line ends), as for a line.
    static let maximumEventBytes = 16 << 20

    /// This stream's bound on a line and on an event's `data:` bytes: `maximumEventBytes`, or
    /// less when many streams share the memory (`StreamMemory.eventBytes`).
    let eventBound: Int

    init(eventBound: Int = ServerSentEventParser.maximumEventBytes) {
        self.eventBound = min(eventBound, Self.maximumEventBytes)
    }

    private var line: [UInt8] = []
    private var afterCarriageReturn = false
    private var atStart = true
    private var data: [UInt8] = []
    private var hasData = false
    private var type: String?
    /// True once a line of the event-stream format was seen (a field or a comment): a body of
    /// other text (an HTML error page sent as text/event-stream) never sets it.
    private(set) var sawEventStream = false
    /// Comment lines read (`: keep-alive`): how a server says it is alive while it sends nothing else.
    private(set) var comments = 0

    /// A line or an event past its bound: not an event stream a client can hold.
    enum TooLarge: Error, CustomStringConvertible {
        case line(Int)
        case event(Int)

        var description: String {
            switch self {
            case .line(let bound): "a line of the event stream is over \(ByteCount.format(bound)): not server-sent events"
            case .event(let bound):
                "an event of the stream is over \(ByteCount.format(bound)) (data: lines with no blank line to end it): "
                    + "not server-sent events"
            }
        }
    }

    /// Bytes not yet dispatched as an event (an event cut by the end of the stream).
    var hasPendingEvent: Bool { hasData || !line.isEmpty }

    /// Feeds the next bytes of the body; returns the events they complete, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(TooLarge) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if byte == 0x0A { continue }  // the LF of a CRLF
            }
            switch byte {
            case 0x0A:
                if let event = try endLine() { events.append(event) }
            case 0x0D:
                afterCarriageReturn = true
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < eventBound else { throw .line(eventBound) }
                line.append(byte)
            }
        }
        return events
    }

    /// Handles one complete line; returns an event when the line is blank and one is pending.
    private mutating func endLine() throws(TooLarge) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if atStart {
            atStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
        }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") {
            sawEventStream = true
            comments += 1
            return nil
        }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "data":
            guard data.count + value.count < eventBound else { throw .event(eventBound) }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
            sawEventStream = true
        case "event":
            type = String(decoding: value, as: UTF8.self)
            sawEventStream = true
        case "id", "retry":
            sawEventStream = true  // not used here
        default:
            break  // unknown fields are ignored, as the standard says
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: type, data: String(decoding: data, as: UTF8.self))
    }
}
