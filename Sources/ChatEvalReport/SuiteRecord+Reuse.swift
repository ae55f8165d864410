import ChatEvalCore
import ChatEvalStore

extension SuiteRecord {
    /// Metrics of the measured answered turns after each conversation's first: the turns that
    /// could reuse a cache (a first turn has nothing to reuse, and its 0% would drag a median down).
    var measuredLaterTurns: [TurnMetrics] {
        conversations.filter(\.isMeasured).flatMap { $0.turns.filter { $0.index > 0 }.compactMap(\.metrics) }
    }

    /// The median share of the prompt served from the cache over `measuredLaterTurns`; nil without such turns.
    var laterTurnsReuse: Double? {
        Distribution(measuredLaterTurns.compactMap(\.reuseRatio))?.median
    }
}
