import ArgumentParser
import ChatEvalCore
import ChatEvalOpenAI
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// `run` with a served runtime (`--runtime openai`), under load (`--concurrency`), or as a shard
/// (`--shard I/N`).
extension RunCommand {
    /// The runtime a run replays against, and what owns it.
    struct OpenedRuntime {
        var runtime: any ChatRuntime
        /// The model file's digest (in process only).
        var sha256: String?
        /// The served runtime's connection, to shut down when the run ends.
        var connection: OpenAIConnection?
    }

    /// Refuses combinations that cannot work, before anything is loaded (exit 2).
    func checkLoadAndShard(_ served: ServedConfiguration) throws {
        if baseline != nil, served.kind == .openai || load.levels != nil || load.shard != nil {
            throw failure("--baseline replays two commits in this process with the in-process runtime; it does not combine with --runtime openai, --concurrency or --shard", .badInput)
        }
        if let levels = load.levels, served.kind == .llama, levels.contains(where: { $0 > 1 }) {
            throw failure("--concurrency \(load.concurrency ?? "") needs a served runtime (--runtime openai --base-url URL): the in-process runtime answers one conversation at a time", .badInput)
        }
    }

    /// The suites of this run's shard (all of them without --shard).
    func shardOf(_ suites: [Suite]) -> [Suite] {
        load.parsedShard.map { Sharding.select(suites, shard: $0) } ?? suites
    }

    func openRuntime(_ configuration: RunConfiguration, _ served: ServedConfiguration) async throws -> OpenedRuntime {
        guard let connection = try await served.connect() else {
            let (runtime, sha256) = try Workspace.loadRuntime(configuration)
            return OpenedRuntime(runtime: runtime, sha256: sha256, connection: nil)
        }
        if configuration.cacheMode == .cold, !connection.sendsCacheControl {
            warn("--cache-mode cold: \(connection.server.engine) at \(connection.endpoint.recorded) cannot be told to skip its prompt cache; turns may still reuse it (reuse is what the server reports)")
        }
        return OpenedRuntime(runtime: connection.makeRuntime(), sha256: nil, connection: connection)
    }

    /// Where each setting came from, with the served runtime's settings and without the
    /// in-process model's (which a served run does not use).
    func sources(_ configuration: RunConfiguration, _ served: ServedConfiguration) -> [String: SettingSource] {
        var sources = configuration.sources
        if served.kind == .openai {
            for key in ["model", "chat_template", "context_size", "threads", "batch_size"] { sources[key] = nil }
        }
        return sources.merging(served.sources) { _, servedSource in servedSource }
    }

    /// Replays the plan at each concurrency level in turn, one result file per level (tied by a
    /// sweep id), then prints the levels side by side and, for a sweep, writes the SVG chart.
    func runLoad(_ levels: [Int], opened: OpenedRuntime, plan: RunPlan, configuration: RunConfiguration,
                 served: ServedConfiguration, workspace: Workspace, machineLoad: MachineLoad) async throws {
        let sweepId = levels.count > 1 ? ResultWriter.newRunId() : nil
        printHeader(opened.runtime, configuration, git: workspace.snapshot, plan: plan, machineLoad: machineLoad)
        var finals: [RunRecord] = []
        var files: [String] = []
        for level in levels {
            // One runtime per conversation in flight: new ones over the connection, or the one
            // in-process runtime at concurrency 1 (checkLoadAndShard refused more).
            let runtimes: [any ChatRuntime] = opened.connection.map { connection in (0..<level).map { _ in connection.makeRuntime() } } ?? [opened.runtime]
            var record = makeRecord(runtimes[0], sha256: opened.sha256, configuration: configuration, git: workspace.snapshot, machineLoad: machineLoad)
            record.settings.sources = sources(configuration, served)
            record.shard = load.parsedShard
            let writer = try makeWriter(record, suites: plan.suites, folder: configuration.reportsFolder)
            let runner: LoadRunner
            do {
                runner = try LoadRunner(plan: plan, runtimes: runtimes, sweepId: sweepId)
            } catch {
                throw failure(error.description, .badInput)
            }
            say("load      concurrency \(level): \(plan.conversationCount) conversations, \(plan.turnCount) turns")
            let start = record
            let (results, cancelled) = try await execute(records: [record], writers: [writer], turns: plan.turnCount) { stop, progress in
                [try await runner.run(into: start, writer: writer, stop: stop, observer: progress)]
            }
            finals.append(results[0])
            files.append(writer.resultURL.path)
            addNote(results[0], workspace: workspace)
            if cancelled { throw failure("stopped: the turn in progress was cancelled; what was measured is in \(writer.resultURL.path)", .stoppedAtOnce) }
            if results[0].status == .incomplete {
                say(LoadReport.table(finals.compactMap(\.load)))
                throw failure("the run was interrupted at concurrency \(level); what was measured is in \(writer.resultURL.path)", .runIncomplete)
            }
        }

        if levels.count == 1, let only = finals.first { say(RunReport.render(only, showAnswers: showAnswers)) }
        say("\n" + LoadReport.table(finals.compactMap(\.load)))
        say("\nresults   " + files.joined(separator: "\n          "))
        if levels.count > 1 {
            let chart = load.sweepChart ?? URL(fileURLWithPath: files[0]).deletingPathExtension().path + "-sweep.svg"
            let title = "\(opened.runtime.identity.engine) \(opened.runtime.identity.model.path): TTFT p95 against output tokens/s"
            do {
                try Data(LoadReport.chart(finals.compactMap(\.load), title: title).utf8).write(to: URL(fileURLWithPath: chart), options: .atomic)
                say("chart     \(chart)")
            } catch {
                warn("could not write the sweep chart \(chart): \(error.localizedDescription)")
            }
        }
        guard load.parsedShard == nil else { return }
        for final in finals { try checkGates(final) }
    }
}
