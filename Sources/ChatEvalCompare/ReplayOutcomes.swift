import ChatEvalCore
import ChatEvalStore

/// One suite's replays on each side, in the order of its metrics' replay samples.
struct ReplayOutcomes {
    var base: [ReplayOutcome]
    var head: [ReplayOutcome]
}
