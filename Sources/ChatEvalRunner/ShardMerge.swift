import ChatEvalCore
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Joins the records of a sharded run (`run --shard I/N`, one per CI job) into the record of the
/// whole run: conversations in the order an unsharded run replays them, gates evaluated over all
/// of them (from the suites' text each shard kept). Only the timings and the record's own
/// identity (run id, times, command) differ from an unsharded run of the same commit.
public enum ShardMerge {
    /// Merges `records`, which must be every shard of one run: same N, each index once, same
    /// commit, settings, runtime and suites. `command` is recorded as the merged run's command.
    public static func merge(_ records: [RunRecord], command: [String], runId: String = ResultWriter.newRunId()) throws(ShardMergeError)
        -> RunRecord
    {
        guard let first = records.first else { throw ShardMergeError("no result files to merge") }
        try checkShards(records)
        try checkSameRun(records, first: first)
        let definitions = try suites(of: first)

        var merged = first
        merged.runId = runId
        merged.command = command
        merged.shard = nil
        merged.startedAt = records.map(\.startedAt).min() ?? first.startedAt
        merged.endedAt = records.contains { $0.endedAt == nil } ? nil : records.compactMap(\.endedAt).max()
        merged.status = records.allSatisfy { $0.status == .complete } ? .complete : .incomplete
        merged.environment = first.environment
        if let last = records.max(by: { ($0.endedAt ?? $0.startedAt) < ($1.endedAt ?? $1.startedAt) }) {
            merged.environment?.end = last.environment?.end
        }
        for (index, suite) in definitions.enumerated() {
            let position = Dictionary(suite.conversations.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            let conversations = records.flatMap { $0.suites[index].conversations }.enumerated().sorted { lhs, rhs in
                let (l, r) = (lhs.element, rhs.element)
                if l.repetition != r.repetition { return l.repetition < r.repetition }
                let (lp, rp) = (position[l.id] ?? Int.max, position[r.id] ?? Int.max)
                return lp != rp ? lp < rp : lhs.offset < rhs.offset
            }.map(\.element)
            merged.suites[index].conversations = conversations
            merged.suites[index].text = nil
            merged.suites[index].gates = GateEvaluator.evaluate(suite.gates, conversations: conversations.filter(\.isMeasured))
        }
        merged.gatesPassed = merged.status == .complete ? merged.suites.allSatisfy { $0.gates.allSatisfy(\.passed) } : nil
        return merged
    }

    private static func checkShards(_ records: [RunRecord]) throws(ShardMergeError) {
        let shards = records.map(\.shard)
        guard let count = shards.first??.count, shards.allSatisfy({ $0?.count == count }) else {
            let described = shards.map { $0.map(\.description) ?? "not a shard" }.joined(separator: ", ")
            throw ShardMergeError("the result files are not the shards of one run (\(described)); merge the N files of `run --shard I/N`")
        }
        let indices = shards.compactMap { $0?.index }
        let duplicates = Set(indices.filter { index in indices.filter { $0 == index }.count > 1 }).sorted()
        if !duplicates.isEmpty {
            throw ShardMergeError("shard \(duplicates.map { "\($0)/\(count)" }.joined(separator: ", ")) is given more than once")
        }
        let missing = (1...count).filter { !indices.contains($0) }
        if !missing.isEmpty {
            throw ShardMergeError(
                "shard \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) is missing; every shard's result file is needed")
        }
    }

    private static func checkSameRun(_ records: [RunRecord], first: RunRecord) throws(ShardMergeError) {
        for record in records.dropFirst() {
            let shard = record.shard.map(\.description) ?? "?"
            func differ(_ what: String, _ a: String, _ b: String) throws(ShardMergeError) {
                guard a != b else { return }
                throw ShardMergeError(
                    "shard \(shard) measured \(what) \(b), shard \(first.shard?.description ?? "?") \(a): "
                        + "shards of one run must share commit and settings"
                )
            }
            try differ("commit", first.git?.commit ?? "none", record.git?.commit ?? "none")
            try differ("cache mode", first.settings.cacheMode.rawValue, record.settings.cacheMode.rawValue)
            try differ("repetitions", String(first.settings.repetitions), String(record.settings.repetitions))
            try differ("warm-up", String(first.settings.warmupConversations), String(record.settings.warmupConversations))
            try differ("runtime", runtime(first.runtime), runtime(record.runtime))
            try differ("model sha256", first.modelSha256 ?? "unknown", record.modelSha256 ?? "unknown")
            try differ(
                "suites", first.suites.map { "\($0.name) (\($0.path))" }.joined(separator: ", "),
                record.suites.map { "\($0.name) (\($0.path))" }.joined(separator: ", "))
            for (a, b) in zip(first.suites, record.suites) where a.text != b.text {
                throw ShardMergeError(
                    "shard \(shard) replayed another version of suite \(a.name) (\(a.path)) than shard \(first.shard?.description ?? "?")")
            }
        }
    }

    /// What identifies a runtime's configuration, without the timings of its loading.
    private static func runtime(_ identity: RuntimeIdentity) -> String {
        [
            identity.engine, identity.build, identity.model.path, String(identity.model.fileBytes), identity.chatTemplate,
            identity.chatTemplateHash ?? "", String(identity.contextSize), String(identity.batchSize), String(identity.threads),
            identity.endpoint ?? "", identity.slidingWindowCache?.rawValue ?? "",
        ].joined(separator: " | ")
    }

    private static func suites(of record: RunRecord) throws(ShardMergeError) -> [Suite] {
        var suites: [Suite] = []
        for suite in record.suites {
            guard let text = suite.text else {
                throw ShardMergeError(
                    "the record of suite \(suite.name) keeps no suite text (written by an older ChatEval?); cannot evaluate its gates")
            }
            do {
                suites.append(try SuiteLoader.parse(text, file: suite.path))
            } catch {
                throw ShardMergeError("suite \(suite.name) as the shards kept it does not load: \(error)")
            }
        }
        return suites
    }
}
