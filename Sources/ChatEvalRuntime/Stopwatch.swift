#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Seconds elapsed since a start, on the monotonic clock (immune to wall-clock changes).
public struct Stopwatch: Sendable {
    private let start: ContinuousClock.Instant

    public init() { start = .now }

    public var elapsed: Double { (ContinuousClock.now - start).seconds }
}

extension Duration {
    /// This duration in seconds.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}

/// CPU seconds this process has used since a start: every thread, user and system time, from the
/// C library's process CPU clock (`CLOCK_PROCESS_CPUTIME_ID`). Unlike `Stopwatch`, it does not
/// count the time other processes hold the cores.
public struct CPUStopwatch: Sendable {
    private let start: Double?

    public init() { start = Self.processSeconds() }

    /// Nil where the process CPU clock cannot be read.
    public var elapsed: Double? {
        guard let start, let now = Self.processSeconds() else { return nil }
        return now - start
    }

    /// The process's CPU time so far, nil where the clock cannot be read.
    public static func processSeconds() -> Double? {
        var now = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now) == 0 else { return nil }
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
