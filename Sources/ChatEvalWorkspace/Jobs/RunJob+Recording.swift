import ChatEvalCompare
import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalOpenAI
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation
import Synchronization

extension RunJob {
    /// A record of `plan` on the commit `git` describes, with `configuration`'s project file (see `RunRecordMaker`).
    func makeRecord(
        _ engine: any ChatRuntime, sha256: String?, configuration: RunConfiguration, plan: RunPlan, git: GitSnapshot?,
        machineLoad: MachineLoad
    ) -> RunRecord {
        var record = RunRecordMaker(runtime: engine.identity, modelSha256: sha256, machineLoad: machineLoad).record(
            plan: plan, git: git, project: Workspace.record(of: configuration.project))
        if engine.runsInProcess {
            record.machine.memoryBandwidth = MemoryBandwidth.cachedIfPresent(threads: engine.identity.threads)?.bytesPerSecond
        }
        return record
    }

    /// With --memory-attribution, the process's memory split after `runtime`'s run, while it is
    /// still loaded: llama.cpp's (its model file, buffers and libraries) against the harness's. A
    /// served runtime has none in this process, which is said.
    func printMemoryAttribution(_ runtime: any ChatRuntime) {
        guard attributesMemory else { return }
        guard let split = (runtime as? LlamaChatRuntime)?.memoryAttribution() else {
            output.info("\nmemory    not attributed: the model runs in another process")
            return
        }
        output.info("\nmemory of this process after the run (resident, attributed by mapping):")
        output.info(MemoryAttributionTable.render(split, indent: "  "))
    }

    /// A report that could not be written (exit 3), said at once where the report would have been:
    /// the run is recorded either way, and a stop or an interruption that ends the run next must
    /// not hide it. nil when the report was written.
    func reportFailure(_ reported: Result<Void, any Error>) -> CommandFailure? {
        guard case .failure(let error) = reported else { return nil }
        return ((error as? CommandFailure) ?? failure("cannot write the report: \(error)", .runIncomplete)).sayNow()
    }

    /// `RunRecordMaker.writer`; a result that cannot be started ends the run (exit 3).
    func makeWriter(_ record: RunRecord, suites: [Suite], folder: String) throws -> ResultWriter {
        do {
            return try RunRecordMaker.writer(record, suites: suites, folder: URL(fileURLWithPath: folder))
        } catch {
            throw failure("cannot write results: \(error.description)", .runIncomplete)
        }
    }

    /// What will run, printed before any model loads (a CI log shows it at once); `variants`
    /// are the labels of the models run side by side. The machine's line follows once the model
    /// has loaded (`machineLoad`).
    func printPlan(_ configuration: RunConfiguration, variants: [String], git: GitSnapshot?, plan: RunPlan) {
        output.info(Format.labelled("plan      ", plan.summary(models: variants.count), width: RunReport.width))
        if variants.count > 1 {
            for (index, label) in variants.enumerated() {
                output.info(Format.clip((index == 0 ? "models    " : "          ") + "\(index + 1). \(label)", RunReport.width))
            }
        }
        if let picked = plan.settings.selection {
            let parts =
                picked.patterns.map { "--filter \($0)" } + picked.tags.map { "--tag \($0)" }
                + picked.conversations.sorted { $0.key < $1.key }.map { "\($0.key)#\($0.value.joined(separator: ","))" }
            output.info("selected  \(parts.joined(separator: " "))")
        }
        output.info(Format.clip("commit    \(RunHeader.describe(git))", RunReport.width))
        if let project = configuration.project { output.info("project   \(project.source)") }
    }

    /// The machine's load as the run starts (see `StartLoad`). The first call says it (its line
    /// when `line`, and a warning when it is busy) or, with --require-quiet on a busy machine,
    /// throws before any turn; later calls return the same load.
    func machineLoad(_ start: StartLoad, line: Bool = true) throws -> MachineLoad {
        let (load, first) = start.load()
        guard first else { return load }
        if line { output.info(Format.clip("machine   \(load.summary)", RunReport.width)) }
        if load.isBusy {
            if requireQuiet {
                throw failure("the machine is \(load.summary); timings taken now would carry their noise (--require-quiet)", .runIncomplete)
            }
            warn("the machine is \(load.summary): timings taken now carry their noise (--require-quiet refuses to run)")
        }
        return load
    }

    /// Runs with Ctrl-C and SIGTERM handled (see `InterruptTrap`); returns the records and whether
    /// the run was cancelled by a second signal. A result that cannot be written ends the run
    /// with exit 3, naming the file and how to recover what the journal kept.
    package func execute(
        records: [RunRecord], writers: [ResultWriter], turns: Int, atMost: Bool = false,
        _ run: @escaping @Sendable (StopRequest, RunProgress) async throws -> [RunRecord]
    ) async throws -> ([RunRecord], Bool) {
        let stop = StopRequest()
        let sample = MachineLoad.Sample.begin()
        EngineCrashReport.setRecovery(
            journals: writers.map(\.journalURL.path), reportsFolder: writers.first?.journalURL.deletingLastPathComponent().path)
        // A first look after repetition 1 for a plain run; a paired run (two records) has its own looks.
        let progress = RunProgress(
            totalTurns: turns, repetitions: atMost ? 2 : records.first?.settings.repetitions ?? 1,
            suiteLinesToStandardOutput: output.terminalOnStandardOutput, atMost: atMost, firstLook: records.count == 1)
        do {
            // The first signal's grace ending cancels the turn in progress too, but the run still
            // ends as interrupted (exit 3), not stopped at once (130): only the second signal is that.
            let trapped = try await InterruptTrap.run(stop: stop) { try await run(stop, progress) }
            var finals = trapped.value
            await progress.finish()
            // How busy the machine was, over the whole run: no half second slept after it.
            let end = sample.load()
            for index in finals.indices {
                finals[index].environment?.end = end
                try? writers[index].write(finals[index])
            }
            // Whatever the engine does from here (freed, closing down), nothing measured is at stake.
            EngineCrashReport.setRunFinished(results: writers.map(\.resultURL.path))
            return (finals, trapped.stoppedAtOnce)
        } catch {
            await progress.finish()
            let journals = writers.map(\.journalURL.path).joined(separator: " and ")
            let what = (error as? ResultWriteError)?.description ?? error.localizedDescription
            throw failure(
                "could not write \(what); the turns finished before are kept in \(journals): once there is room, "
                    + "`chateval recover` turns it into a result file", .runIncomplete)
        }
    }

    /// Adds the run to its commit's git note when asked, or says why it cannot.
    func addNote(_ record: RunRecord, workspace: Workspace) {
        guard gitNote else { return }
        guard let repository = workspace.repository, let snapshot = workspace.snapshot else {
            warn("no git note was added: not inside a git repository")
            return
        }
        guard let commit = snapshot.commit else {
            warn("no git note was added: the repository has no commits yet")
            return
        }
        guard !snapshot.isDirty else {
            warn(
                "no git note was added: the working tree has \(snapshot.modifiedCount) uncommitted change(s), "
                    + "so the run does not measure \(snapshot.shortCommit ?? commit)"
            )
            return
        }
        do {
            try repository.appendNote(try RunNote.line(for: record), to: commit)
            output.info(
                "note      added to \(snapshot.shortCommit ?? commit) under \(GitRepository.chatEvalNotesRef) "
                    + "(share it: git push origin 'refs/notes/*')"
            )
        } catch {
            warn("could not add the git note: \(error)")
        }
    }
}
