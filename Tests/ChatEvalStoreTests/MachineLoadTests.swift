import ChatEvalStore
import ChatEvalTestKit
import Foundation
import Testing

/// A run is its own sample of the machine's load (2026-11-30: `run` slept half a second after every
/// run to sample the end, and half a second before it, the model loading only after).
@Suite struct MachineLoadTests {
    /// Over an interval the caller spent working, the sample waits for nothing, counts a process
    /// born during it (before, a process absent at the start was skipped: a compile started
    /// during a long run was never named), and says how long it lasted.
    @Test func aSampleOverTheCallersOwnWorkCountsAProcessBornDuringIt() throws {
        let sample = MachineLoad.Sample.begin()
        let child = try SpinningProcess()
        defer { child.stop() }
        // The caller's own work meanwhile (as a run's turns): never counted as another process's.
        let clock = ContinuousClock()
        let busyUntil = clock.now.advanced(by: .milliseconds(1200))
        while clock.now < busyUntil {}  // reads the clock each round: cannot be optimised away
        let asked = clock.now
        // Every other process named: on a busy machine the spinner need not be among the five busiest.
        let load = sample.load(naming: .max)
        let waited = asked.duration(to: clock.now)
        #expect(waited < .milliseconds(400), "no sleep once the interval has passed: \(waited)")
        let seconds = try #require(load.seconds)
        #expect(seconds >= 1.2 && seconds < 2.5, "\(seconds)")
        let share = try #require(load.busiest.first { $0.pid == child.pid }, "the spinner is named: \(load.busiest)")
        #expect(share.cores > 0.05, "\(share)")
        // The total holds at least the named spinner (ticks are 1/100 s).
        #expect(load.otherProcessesCores + 0.05 >= share.cores, "\(load.otherProcessesCores) against \(share.cores)")
        #expect(!load.busiest.contains { $0.pid == Int(getpid()) }, "the caller is never another process")
    }

    /// Asked for at once, the sample still lasts its minimum: a quarter of a core must stand out
    /// from 1/100 s ticks.
    @Test func aSampleAskedForAtOnceLastsItsMinimum() {
        let clock = ContinuousClock()
        let began = clock.now
        let load = MachineLoad.Sample.begin().load(atLeast: 0.5)
        #expect(began.duration(to: clock.now) >= .milliseconds(500))
        #expect((load.seconds ?? 0) >= 0.5)
        #expect(MachineLoad.sample(over: 0.2).seconds.map { $0 >= 0.2 } == true)
    }
}
