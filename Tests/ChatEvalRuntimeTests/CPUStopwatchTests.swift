import ChatEvalRuntime
import Testing

/// `CPUStopwatch` reads the process's CPU clock: it is readable here, starts near zero and grows
/// with work this process does. (That it leaves out other processes' time cannot be held in a test
/// process whose other tests run beside this one.)
@Suite struct CPUStopwatchTests {
    @Test func itStartsNearZeroAndGrowsWithThisProcesssWork() throws {
        let cpu = CPUStopwatch()
        let wall = Stopwatch()
        let start = try #require(cpu.elapsed, "the process CPU clock could not be read")
        #expect(start >= 0)
        #expect(start < 1)
        // Spin until 50 ms of CPU have been used, or give up after 20 s of wall time (a busy machine
        // slows the spin, not what it measures).
        var sink = 0.0
        while (cpu.elapsed ?? 0) < start + 0.05 && wall.elapsed < 20 {
            for index in 0..<10_000 { sink += Double(index).squareRoot() }
        }
        let spent = try #require(cpu.elapsed)
        #expect(spent >= start + 0.05, "CPU time did not grow while this test spun (sink \(sink))")
        #expect(try #require(CPUStopwatch.processSeconds()) >= spent)
    }
}
