import ChatEvalCore
import ChatEvalOpenAI
import Foundation
import Testing

@Suite struct RetryPolicyTests {
    private let policy = RetryPolicy(maximumRetries: 4, initialDelay: 1, maximumDelay: 5, maximumRetryAfter: 30)

    @Test func backoffDoublesWithinEqualJitterAndStopsAtTheLargestStep() {
        // uniform 0 gives the fixed half of each step, uniform 1 the whole step.
        #expect((1...4).map { policy.delay(beforeRetry: $0, after: .unavailable, retryAfter: nil) { 0 } } == [0.5, 1, 2, 2.5])
        #expect((1...4).map { policy.delay(beforeRetry: $0, after: .rateLimited, retryAfter: nil) { 1 } } == [1, 2, 4, 5])
    }

    @Test func onlyTransientFailuresAreRetriedAndOnlyAsOftenAsAllowed() {
        #expect(policy.delay(beforeRetry: 5, after: .unavailable, retryAfter: nil) { 0.5 } == nil)
        for code in [
            RuntimeFailure.Code.contextOverflow, .timeout, .malformedStream, .streamInterrupted, .unauthorized, .httpError, .refused,
        ] {
            #expect(policy.delay(beforeRetry: 1, after: code, retryAfter: nil) { 0.5 } == nil, "\(code)")
        }
        #expect(RetryPolicy.none.delay(beforeRetry: 1, after: .unavailable, retryAfter: nil) { 0.5 } == nil)
    }

    @Test func retryAfterIsHonouredAsGivenUpToTheBound() {
        #expect(policy.delay(beforeRetry: 1, after: .rateLimited, retryAfter: 7) { 0.5 } == 7)
        #expect(policy.delay(beforeRetry: 1, after: .rateLimited, retryAfter: 31) { 0.5 } == nil)
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(RetryPolicy.retryAfterSeconds("120", now: now) == 120)
        #expect(RetryPolicy.retryAfterSeconds("Tue, 14 Nov 2023 22:13:50 GMT", now: now) == 30)
        #expect(RetryPolicy.retryAfterSeconds("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(RetryPolicy.retryAfterSeconds("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfterSeconds("-3", now: now) == nil)
    }
}
