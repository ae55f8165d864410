import ChatEvalStore
import ChatEvalSuites

/// Splits a run's conversations over N parallel jobs (`run --shard I/N`): a pure function of the
/// loaded suites, so every job computes the same split without talking to the others.
///
/// Conversations stay whole (a conversation's turns depend on each other) and are balanced by
/// turn count: longest first, each to the shard with the fewest turns so far, ties to the lowest
/// shard and, among equally long conversations, in suite order ("longest processing time first",
/// within 4/3 of the best balance). Every suite stays in every shard's plan, possibly with no
/// conversations, so that the shards' records list the same suites in the same order.
public enum Sharding {
    /// The shard (1-based) of every conversation, per suite, in suite order.
    public static func assignment(_ suites: [Suite], count: Int) -> [[Int]] {
        precondition(count >= 1, "a run has at least one shard")
        var assignment = suites.map { Array(repeating: 1, count: $0.conversations.count) }
        var places: [(suite: Int, conversation: Int, turns: Int)] = []
        for (suiteIndex, suite) in suites.enumerated() {
            for (conversationIndex, conversation) in suite.conversations.enumerated() {
                places.append((suiteIndex, conversationIndex, conversation.script.userMessages.count))
            }
        }
        // Stable: equal turn counts keep suite order.
        let ordered = places.enumerated().sorted { lhs, rhs in
            lhs.element.turns != rhs.element.turns ? lhs.element.turns > rhs.element.turns : lhs.offset < rhs.offset
        }.map(\.element)
        var load = Array(repeating: 0, count: count)
        for place in ordered {
            var lightest = 0
            for shard in load.indices where load[shard] < load[lightest] { lightest = shard }
            load[lightest] += place.turns
            assignment[place.suite][place.conversation] = lightest + 1
        }
        return assignment
    }

    /// The suites with only the conversations of `shard`, in their order; every suite is kept.
    public static func select(_ suites: [Suite], shard: RunShard) -> [Suite] {
        let assignment = assignment(suites, count: shard.count)
        return zip(suites, assignment).map { suite, shards in
            var part = suite
            part.conversations = zip(suite.conversations, shards).filter { $0.1 == shard.index }.map(\.0)
            return part
        }
    }
}
