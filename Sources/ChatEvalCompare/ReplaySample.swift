import ChatEvalCore
import ChatEvalStore
import Foundation

/// One replay's values of one metric, turn by turn: what a comparison reduces to a single value.
public struct ReplaySample: Sendable {
    public var conversation: String
    /// 0-based turn → value, for the turns where the metric is defined.
    public var values: [Int: Double]

    public init(conversation: String, values: [Int: Double]) {
        self.conversation = conversation
        self.values = values
    }

    func only(_ key: RunComparator.TurnKey) -> ReplaySample? {
        guard conversation == key.conversation, let value = values[key.turn] else { return nil }
        return ReplaySample(conversation: conversation, values: [key.turn: value])
    }

    /// A typical turn on each side, on the scale `strata` compares: over the (conversation, turn)
    /// pairs measured on both sides, the mean of each side's median — on the log scale when asked,
    /// so a geometric mean. Its head ÷ base reconciles with the stratified estimate (which is a
    /// shift of exactly these per-turn levels), where the pooled medians of all turns need not:
    /// a slow first turn and fast later ones pool into a median of whichever turns dominate.
    public static func typicalTurn(base: [ReplaySample], head: [ReplaySample], onLogScale: Bool) -> (base: Double, head: Double)? {
        func values(_ samples: [ReplaySample]) -> [String: [Int: [Double]]] {
            var found: [String: [Int: [Double]]] = [:]
            for sample in samples {
                for (turn, value) in sample.values where onLogScale ? value > 0 && value.isFinite : value.isFinite {
                    found[sample.conversation, default: [:]][turn, default: []].append(onLogScale ? Foundation.log(value) : value)
                }
            }
            return found
        }
        let baseValues = values(base), headValues = values(head)
        var baseSum = 0.0, headSum = 0.0, count = 0
        // In conversation and turn order: a dictionary's order differs between processes, and a
        // sum's last bits with it — the gate and `compare` of its files must print the same level.
        for conversation in baseValues.keys.sorted() {
            let turns = baseValues[conversation] ?? [:]
            for turn in turns.keys.sorted() {
                guard let baseTurn = turns[turn], let headTurn = headValues[conversation]?[turn], let b = Distribution(baseTurn)?.median,
                    let h = Distribution(headTurn)?.median
                else { continue }
                baseSum += b
                headSum += h
                count += 1
            }
        }
        guard count > 0 else { return nil }
        let back: (Double) -> Double = onLogScale ? { Foundation.exp($0) } : { $0 }
        return (back(baseSum / Double(count)), back(headSum / Double(count)))
    }

    /// The values the comparison tests: per conversation (a stratum), each replay's mean over its
    /// turns of (value − the turn's median over both sides), on the log scale when asked. The
    /// medians are taken over both sides together, so relabelling which side a replay came from
    /// changes nothing but the labels — the rank test stays exact. Conversations measured on one
    /// side only are left out.
    public static func strata(base: [ReplaySample], head: [ReplaySample], onLogScale: Bool) -> [(base: [Double], head: [Double])] {
        strata(base: base, head: head, summaries: summaries(base + head, onLogScale: onLogScale))
    }

    /// `strata` from the replays' `summaries` (aligned with base + head), taken once.
    static func strata(base: [ReplaySample], head: [ReplaySample], summaries values: [Double?]) -> [(base: [Double], head: [Double])] {
        var byConversation: [String: (base: [Double], head: [Double])] = [:]
        for (index, sample) in (base + head).enumerated() {
            guard let value = values[index] else { continue }
            if index < base.count {
                byConversation[sample.conversation, default: ([], [])].base.append(value)
            } else {
                byConversation[sample.conversation, default: ([], [])].head.append(value)
            }
        }
        return byConversation.keys.sorted().compactMap { conversation in
            let stratum = byConversation[conversation]!
            return stratum.base.isEmpty || stratum.head.isEmpty ? nil : stratum
        }
    }

    /// Each replay's value as `strata` compares it — the mean over its turns of (value − the turn's
    /// median over all `samples` of its conversation) — aligned with `samples`; nil for a replay
    /// with no usable value.
    public static func summaries(_ samples: [ReplaySample], onLogScale: Bool) -> [Double?] {
        let transform: (Double) -> Double? = { value in
            onLogScale ? (value > 0 && value.isFinite ? Foundation.log(value) : nil) : (value.isFinite ? value : nil)
        }
        // Each replay as (turn, value) pairs on the compared scale (turn indices are small: arrays, not dictionaries;
        // an index no record can hold is left out, never trusted to size an array).
        // In turn order: a dictionary's order differs between processes, and a sum's last bits with it.
        let scaled = samples.map { sample in
            sample.values.sorted { $0.key < $1.key }.compactMap { turn, value in
                (0..<ReplayedTurn.indexLimit).contains(turn) ? transform(value).map { (turn: turn, value: $0) } : nil
            }
        }
        var byConversation: [String: [Int]] = [:]
        for (index, sample) in samples.enumerated() { byConversation[sample.conversation, default: []].append(index) }
        var result = [Double?](repeating: nil, count: samples.count)
        for replays in byConversation.values {
            let turns = replays.flatMap { scaled[$0].map(\.turn) }.max().map { $0 + 1 } ?? 0
            var byTurn = [[Double]](repeating: [], count: turns)
            for replay in replays { for (turn, value) in scaled[replay] { byTurn[turn].append(value) } }
            let typical = byTurn.map { Distribution($0)?.median ?? 0 }
            for replay in replays where !scaled[replay].isEmpty {
                result[replay] = scaled[replay].reduce(0) { $0 + $1.value - typical[$1.turn] } / Double(scaled[replay].count)
            }
        }
        return result
    }
}
