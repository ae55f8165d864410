/// One event of a `text/event-stream` body.
struct ServerSentEvent: Sendable, Hashable {
    /// The `event:` field; nil for the default type ("message").
    var type: String?
    /// The `data:` lines joined by line feeds.
    var data: String
}
