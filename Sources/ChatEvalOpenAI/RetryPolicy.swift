import ChatEvalCore
import Foundation

/// When and how long a served runtime waits before trying a turn again.
///
/// Only transient failures are retried — the server asked to slow down (429, `rate_limited`) or
/// could not take the request now (502/503/504 or no connection, `unavailable`) — and only when
/// nothing of the answer had arrived, so a retried turn is measured whole from its own start.
/// Waits grow exponentially with "equal jitter" (half the step fixed, half random), so that
/// clients that failed together do not retry together; a `Retry-After` from the server is
/// honoured as given when it is no longer than `maximumRetryAfter`, and a longer one ends the
/// turn at once (waiting it out would stall the run).
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt (0: never retry).
    public var maximumRetries: Int
    /// The first backoff step, in seconds; each later step doubles it.
    public var initialDelay: Double
    /// Largest backoff step, in seconds.
    public var maximumDelay: Double
    /// Longest `Retry-After` honoured, in seconds.
    public var maximumRetryAfter: Double

    public init(maximumRetries: Int = 3, initialDelay: Double = 0.5, maximumDelay: Double = 20, maximumRetryAfter: Double = 60) {
        self.maximumRetries = maximumRetries
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// Never retries.
    public static let none = RetryPolicy(maximumRetries: 0)

    /// Failures worth another attempt.
    public static func isTransient(_ code: RuntimeFailure.Code) -> Bool {
        code == .rateLimited || code == .unavailable
    }

    /// Problems with the numbers, as sentences naming the setting; empty when valid.
    public var problems: [String] {
        var found: [String] = []
        if !(0...100).contains(maximumRetries) { found.append("retries must be between 0 and 100 (got \(maximumRetries))") }
        if !(initialDelay >= 0 && initialDelay.isFinite) { found.append("the retry delay must be 0 or more seconds (got \(initialDelay))") }
        if !(maximumDelay >= initialDelay && maximumDelay.isFinite) {
            found.append("the longest retry delay must be at least the first (got \(maximumDelay))")
        }
        if !(maximumRetryAfter >= 0 && maximumRetryAfter.isFinite) {
            found.append("the longest Retry-After must be 0 or more seconds (got \(maximumRetryAfter))")
        }
        return found
    }

    /// Seconds to wait before retry number `retry` (1-based) after a failure with `code`, or nil
    /// when the turn must not be retried (not transient, retries used up, or a `Retry-After`
    /// beyond `maximumRetryAfter`). `uniform` draws from [0, 1).
    public func delay(beforeRetry retry: Int, after code: RuntimeFailure.Code, retryAfter: Double?, uniform: () -> Double) -> Double? {
        guard Self.isTransient(code), retry >= 1, retry <= maximumRetries else { return nil }
        if let retryAfter {
            return retryAfter <= maximumRetryAfter ? max(retryAfter, 0) : nil
        }
        var step = initialDelay
        for _ in 1..<retry { step = min(step * 2, maximumDelay) }
        step = min(step, maximumDelay)
        return step / 2 + step / 2 * min(max(uniform(), 0), 1)
    }

    /// A `Retry-After` header's value in seconds: delay-seconds, or an HTTP date (RFC 9110 §10.2.3)
    /// relative to `now`; nil when it is neither.
    public static func retryAfterSeconds(_ value: String, now: Date = Date()) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed), seconds >= 0 { return Double(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
