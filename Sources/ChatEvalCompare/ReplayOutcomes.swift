import ChatEvalCore
import ChatEvalStore

/// One suite's replays on each side, in the order of its metrics' replay samples.
package struct ReplayOutcomes {
    var base: [ReplayOutcome]
    var head: [ReplayOutcome]

    package init(base: [ReplayOutcome], head: [ReplayOutcome]) {
        self.base = base
        self.head = head
    }
}
