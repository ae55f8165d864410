/// One failed attempt at a turn that was tried again: what failed and how long the runtime waited.
public struct RetryAttempt: Codable, Sendable, Hashable {
    /// 1-based number of the attempt that failed.
    public var attempt: Int
    public var code: RuntimeFailure.Code
    public var message: String
    /// Seconds from the start of that attempt to its failure.
    public var elapsed: Double
    /// Seconds waited before the next attempt (backoff with jitter, or the server's Retry-After).
    public var delay: Double
    /// The server's `Retry-After`, in seconds, when it sent one.
    public var retryAfter: Double?

    public init(attempt: Int, code: RuntimeFailure.Code, message: String, elapsed: Double, delay: Double, retryAfter: Double? = nil) {
        self.attempt = attempt
        self.code = code
        self.message = Secrets.redact(message)
        self.elapsed = elapsed
        self.delay = delay
        self.retryAfter = retryAfter
    }
}
