import ChatEvalCore
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalTestKit
import Foundation
import Testing

@Suite struct ShardingTests {
    /// Two suites of conversations of 1 to 5 turns, with checks on answers and gates.
    static func suites() throws -> [Suite] {
        func suite(_ name: String, turns: [Int]) throws -> Suite {
            let conversations = turns.enumerated().map { index, count in
                "  - id: \(name)-c\(index + 1)\n    turns:\n"
                    + (1...count).map { turn in
                        "      - user: \"\(name) \(index + 1).\(turn)\"\n"
                            + "        checks: [{type: contains, value: \"\(index + 1).\(turn)\"}]\n"
                    }.joined()
            }.joined()
            let yaml =
                "name: \(name)\ngates:\n  min_pass_rate: 0.5\n  metrics: [{metric: ttft, stat: p95, max: 1}]\nconversations:\n"
                + conversations
            return try SuiteLoader.parse(yaml, file: "\(name).yaml")
        }
        return [try suite("alpha", turns: [3, 1, 5, 2, 2, 4]), try suite("beta", turns: [1, 1, 3, 2])]
    }

    /// Answers echo the last user message, so a conversation's answers do not depend on what ran before it.
    static func echo() -> ScriptedRuntime {
        ScriptedRuntime { messages, _ in
            let last = messages.last?.content ?? ""
            return .answer(["echo: ", last], ScriptedRuntime.metrics(prompt: messages.count * 10, reused: max(messages.count - 1, 0) * 10))
        }
    }

    @Test func shardsAreConversationAtomicBalancedByTurnsAndCoverEverythingOnce() throws {
        let suites = try Self.suites()
        let assignment = Sharding.assignment(suites, count: 4)
        var turns = Array(repeating: 0, count: 4)
        for (suite, shards) in zip(suites, assignment) {
            for (conversation, shard) in zip(suite.conversations, shards) { turns[shard - 1] += conversation.script.userMessages.count }
        }
        #expect(turns.reduce(0, +) == 24)
        #expect(turns.max()! - turns.min()! <= 1)  // 24 turns over 4 shards: 6 each
        let parts = (1...4).map { Sharding.select(suites, shard: RunShard(index: $0, count: 4)) }
        for part in parts { #expect(part.map(\.name) == ["alpha", "beta"]) }  // every suite in every shard
        let ids = parts.flatMap { $0.flatMap { $0.conversations.map(\.id) } }
        #expect(ids.sorted() == suites.flatMap { $0.conversations.map(\.id) }.sorted())
        #expect(Sharding.assignment(suites, count: 4) == assignment)  // a pure function
        #expect(Sharding.assignment(suites, count: 1).allSatisfy { $0.allSatisfy { $0 == 1 } })
    }

    @Test func shardSpecificationsAreParsedStrictly() {
        #expect(RunShard(parsing: "2/4") == RunShard(index: 2, count: 4))
        for bad in ["0/4", "5/4", "4", "1/0", "a/b", "1/2/3", "-1/2", ""] { #expect(RunShard(parsing: bad) == nil, "\(bad)") }
    }

    @Test func fourMergedShardsEqualOneUnshardedRunButForTimings() async throws {
        let suites = try Self.suites()
        let settings = RunSettings(cacheMode: .session, repetitions: 2, warmupConversations: 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        func run(_ plan: RunPlan, shard: RunShard?) async throws -> RunRecord {
            let runtime = Self.echo()
            var record = RunRecord(
                runId: ResultWriter.newRunId(), startedAt: Date(), command: ["test"], git: nil, machine: MachineInfo.current(),
                runtime: runtime.identity, modelSha256: nil, settings: settings)
            record.shard = shard
            let writer = try ResultWriter(
                folder: folder, record: record, suites: plan.suites.map { SuiteSource(path: $0.path, text: $0.text) })
            _ = try await SuiteRunner(runtime: runtime, plan: plan).run(into: record, writer: writer, stop: StopRequest())
            // Read back from disk, as `chateval merge` does.
            return try ResultWriter.makeDecoder().decode(RunRecord.self, from: Data(contentsOf: writer.resultURL))
        }

        let whole = try await run(RunPlan(suites: suites, settings: settings), shard: nil)
        var shards: [RunRecord] = []
        for index in [3, 1, 4, 2] {  // any order of files
            let shard = RunShard(index: index, count: 4)
            shards.append(try await run(RunPlan(suites: Sharding.select(suites, shard: shard), settings: settings), shard: shard))
        }
        #expect(shards.allSatisfy { $0.suites.allSatisfy { $0.text != nil } })
        let merged = try ShardMerge.merge(shards, command: ["chateval", "merge"])

        #expect(try Self.withoutTimings(merged) == Self.withoutTimings(whole))
        #expect(merged.suites.flatMap(\.gates).count == 4)
        #expect(merged.gatesPassed == whole.gatesPassed)
        #expect(merged.shard == nil)
        #expect(merged.status == .complete)
    }

    @Test func mergingRefusesShardsOfDifferentRunsMissingOrRepeatedShards() throws {
        func record(_ shard: RunShard?, commit: String = "abc", cacheMode: CacheMode = .session) -> RunRecord {
            var record = RunRecord(
                runId: "r", startedAt: Date(), command: [],
                git: GitSnapshot(
                    commit: commit, shortCommit: nil, branch: "main", isDetached: false, isUnborn: false, modifiedCount: 0,
                    untrackedCount: 0,
                    commitTime: nil, commitTimeZoneOffsetMinutes: nil, subject: nil, describe: nil,
                    isShallow: false, workdir: nil), machine: MachineInfo.current(),
                runtime: Self.echo().identity, modelSha256: nil,
                settings: RunSettings(cacheMode: cacheMode, repetitions: 1, warmupConversations: 0))
            record.shard = shard
            record.suites = [SuiteRecord(name: "s", path: "s.yaml", text: "name: s\nconversations:\n  - id: a\n    turns: [hi]\n")]
            return record
        }
        let one = RunShard(index: 1, count: 2), two = RunShard(index: 2, count: 2)
        #expect(Self.mergeError([record(one), record(two, commit: "def")]).contains("commit"))
        #expect(Self.mergeError([record(one), record(two, cacheMode: .cold)]).contains("cache mode"))
        #expect(Self.mergeError([record(one)]).contains("2/2 is missing"))
        #expect(Self.mergeError([record(one), record(one), record(two)]).contains("more than once"))
        #expect(Self.mergeError([record(one), record(nil)]).contains("not a shard"))
        #expect(Self.mergeError([]).contains("no result files"))
    }

    static func mergeError(_ records: [RunRecord]) -> String {
        do {
            _ = try ShardMerge.merge(records, command: [])
            return "merged"
        } catch {
            return error.description
        }
    }

    /// The record's JSON without what legitimately differs: its identity, its times, and every timing.
    static func withoutTimings(_ record: RunRecord) throws -> String {
        var copy = record
        copy.runId = ""
        copy.command = []
        copy.startedAt = Date(timeIntervalSince1970: 0)
        copy.endedAt = nil
        copy.environment = nil
        for s in copy.suites.indices {
            for c in copy.suites[s].conversations.indices {
                copy.suites[s].conversations[c].load = nil  // the machine's load while it ran: a timing too
                for t in copy.suites[s].conversations[c].turns.indices {
                    copy.suites[s].conversations[c].turns[t].metrics?.timeToFirstToken = 0
                    copy.suites[s].conversations[c].turns[t].metrics?.totalTime = 0
                    copy.suites[s].conversations[c].turns[t].metrics?.decodeTime = 0
                    copy.suites[s].conversations[c].turns[t].metrics?.prefillTime = nil
                    copy.suites[s].conversations[c].turns[t].metrics?.interTokenLatencies = []
                }
            }
        }
        let data = try ResultWriter.makeEncoder(pretty: true).encode(copy)
        return String(decoding: data, as: UTF8.self)
    }
}
