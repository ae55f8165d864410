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
extension RunJob {
    /// One model a run replays the suites against: a GGUF file in this process, or a model of the
    /// served runtime (by the name requests carry).
    package struct RunVariant {
        package var label: String
        package var inProcess: RunConfiguration.ModelVariant?
        /// The served model's name ("" for the one model the server lists).
        package var modelName: String?
    }

    /// The runtime a variant replays against, and what owns it.
    package struct OpenedRuntime {
        package var runtime: any ChatRuntime
        /// The model file's digest (in process only).
        package var sha256: String?
        /// The served runtime's connection, to shut down when the variant is done.
        package var connection: OpenAIConnection?
    }

    /// What one variant's run left: its records (one per concurrency level under load), their
    /// result files, and whether a second signal cancelled it.
    package struct RunOutcome {
        package var records: [RunRecord]
        package var results: [URL]
        package var cancelled: Bool
    }

    /// Refuses combinations that cannot work, before anything is loaded (exit 2). `models` is the
    /// number of models run side by side.
    func checkLoadAndShard(_ served: ServedConfiguration, models: Int) throws {
        if baseline != nil, served.kind == .openai || load.levels != nil || load.shard != nil {
            throw failure(
                "--baseline replays two commits in this process with the in-process runtime; "
                    + "it does not combine with --runtime openai, --concurrency or --shard",
                .badInput)
        }
        if served.kind == .openai, settings.overrides.models != nil {
            throw failure(
                "--model is a GGUF file for the in-process runtime; "
                    + "name a served model with --model-name (repeat it for several side by side)",
                .badInput)
        }
        if let levels = load.levels, served.kind == .llama, levels.contains(where: { $0 > 1 }) {
            throw failure(
                "--concurrency \(levels.map(String.init).joined(separator: ",")) needs a served runtime (--runtime openai --base-url URL): "
                    + "the in-process runtime answers one conversation at a time",
                .badInput)
        }
        if load.shard != nil, models > 1 {
            throw failure("--shard runs one model: give each CI job one model (the shards of each model are merged apart)", .badInput)
        }
    }

    /// The suites of this run's shard (all of them without --shard).
    func shardOf(_ suites: [Suite]) -> [Suite] {
        load.shard.map { Sharding.select(suites, shard: $0) } ?? suites
    }

    /// The models of the run, side by side when there are several: the in-process variants, or
    /// the served runtime's model names.
    func runVariants(_ configuration: RunConfiguration, _ served: ServedConfiguration) -> [RunVariant] {
        guard served.kind == .openai else { return configuration.variants.map { RunVariant(label: $0.label, inProcess: $0) } }
        return served.modelNames.map { RunVariant(label: $0.isEmpty ? "served model" : $0, modelName: $0) }
    }

    func openRuntime(_ variant: RunVariant, _ configuration: RunConfiguration, _ served: ServedConfiguration) async throws
        -> OpenedRuntime
    {
        if let inProcess = variant.inProcess {
            let (runtime, sha256) = try Workspace.loadRuntime(configuration, inProcess)
            return OpenedRuntime(runtime: runtime, sha256: sha256, connection: nil)
        }
        let connection = try await served.connect(modelName: variant.modelName ?? "")
        if configuration.cacheMode == .cold, !connection.sendsCacheControl {
            warn(
                "--cache-mode cold: \(connection.server.engine) at \(connection.endpoint.recorded) cannot be told to skip its prompt "
                    + "cache; turns may still reuse it (reuse is what the server reports)"
            )
        }
        return OpenedRuntime(runtime: connection.makeRuntime(), sha256: nil, connection: connection)
    }

    /// Where each setting came from, with the served runtime's settings and without the
    /// in-process model's (which a served run does not use).
    package func sources(_ configuration: RunConfiguration, _ served: ServedConfiguration) -> [String: SettingSource] {
        var sources = configuration.sources
        if served.kind == .openai {
            for key in ["model", "chat_template", "context_size", "threads", "batch_size", "sliding_window_cache"] { sources[key] = nil }
        }
        return sources.merging(served.sources) { _, servedSource in servedSource }
    }

    /// Replays the plan at each concurrency level in turn, one result file per level (tied by a
    /// sweep id), and for a sweep writes the SVG chart. Stops at a level that was interrupted;
    /// the report (`terminalReport`), notes, gates and exit codes are the caller's.
    func runLoad(
        _ levels: [Int], opened: OpenedRuntime, plan: RunPlan, configuration: RunConfiguration, served: ServedConfiguration,
        group: RunGroup?, workspace: Workspace, machineLoad: MachineLoad
    ) async throws -> RunOutcome {
        let sweepId = levels.count > 1 ? ResultWriter.newRunId() : nil
        var outcome = RunOutcome(records: [], results: [], cancelled: false)
        for level in levels {
            // One runtime per conversation in flight: new ones over the connection, or the one
            // in-process runtime at concurrency 1 (checkLoadAndShard refused more).
            let runtimes: [any ChatRuntime] =
                opened.connection.map { connection in (0..<level).map { _ in connection.makeRuntime(streams: level) } } ?? [opened.runtime]
            let (record, writer) = try startRecord(
                runtimes[0], sha256: opened.sha256, configuration: configuration, served: served, plan: plan, group: group,
                workspace: workspace, machineLoad: machineLoad)
            let runner: LoadRunner
            do {
                runner = try LoadRunner(plan: plan, runtimes: runtimes, sweepId: sweepId)
            } catch {
                throw failure(error.description, .badInput)
            }
            output.info(
                "load      concurrency \(level): \(Format.count(plan.conversationCount, "conversation")), "
                    + "\(Format.count(plan.turnCount, "turn"))"
            )
            let start = record
            let (results, cancelled) = try await execute(records: [record], writers: [writer], turns: plan.turnCount) { stop, progress in
                [try await runner.run(into: start, writer: writer, stop: stop, observer: progress)]
            }
            outcome.records.append(results[0])
            outcome.results.append(writer.resultURL)
            outcome.cancelled = cancelled
            if cancelled || results[0].status == .incomplete { break }
        }

        if levels.count > 1, outcome.records.count > 1, let first = outcome.results.first {
            let chart =
                load.sweepChart.map { path in
                    // Several models side by side: one chart each, numbered as their result files are.
                    group.map {
                        URL(fileURLWithPath: path).deletingPathExtension().path + "-\($0.index)." + URL(fileURLWithPath: path).pathExtension
                    } ?? path
                } ?? first.deletingPathExtension().path + "-sweep.svg"
            let title = "\(opened.runtime.identity.engine) \(opened.runtime.identity.model.path): TTFT p95 against output tokens/s"
            do {
                try Data(LoadReport.chart(outcome.records.compactMap(\.load), title: title).utf8).write(
                    to: URL(fileURLWithPath: chart), options: .atomic)
                output.info("chart     \(chart)")
            } catch {
                warn("could not write the sweep chart \(chart): \(error.localizedDescription)")
            }
        }
        return outcome
    }

    /// The terminal report of a run's records (`RunReport.render(_:options:loadLevels:)`), as this command's options ask.
    func terminalReport(_ records: [RunRecord]) -> String {
        RunReport.render(records, options: reportOptions, loadLevels: load.levels?.count)
    }
}
