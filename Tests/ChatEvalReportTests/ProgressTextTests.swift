import ChatEvalReport
import Testing

/// The progress line's counts and ETA (`RunProgress`): never a bound the run has passed.
@Suite struct ProgressTextTests {
    @Test func withinThePlanTheCountShowsItsTotal() {
        #expect(Format.turnsDone(12, of: 64, atMost: false) == "12/64 turns")
        #expect(Format.turnsDone(12, of: 64, atMost: true) == "12/≤64 turns")
        #expect(Format.eta(16, of: 64, atMost: true, elapsed: 20) == "ETA ≤ 1:00")
        #expect(Format.eta(0, of: 64, atMost: true, elapsed: 0) == "ETA –")
    }

    /// A paired run re-measuring replays disturbed by other processes goes past its most: it
    /// printed "66/≤64 turns" and a negative ETA.
    @Test func pastTheMostTheCountShowsNoFalseBound() {
        #expect(Format.turnsDone(66, of: 64, atMost: true) == "66 turns (≤64 planned)")
        #expect(Format.eta(66, of: 64, atMost: true, elapsed: 66) == "ETA –")
        #expect(Format.turnsDone(64, of: 64, atMost: true) == "64/≤64 turns")
    }
}
