import ArgumentParser
import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import Foundation

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Replay suites against the model, measure every turn, record the run.",
        discussion: "Writes a result file under the reports folder (see reports/schema/run.schema.json).")

    @OptionGroup var suites: SuiteOptions
    @OptionGroup var runtime: RuntimeOptions
    @OptionGroup var recording: RecordingOptions

    @Option(name: .customLong("cache-mode"), help: "session: reuse the KV cache across turns, as a chat app does; cold: re-evaluate the whole history every turn.")
    var cacheMode: CacheMode = .session

    @Option(name: .customLong("repeat"), help: "Measured repetitions of every conversation (raw samples of each are recorded).")
    var repetitions: Int = 1

    @Option(name: .customLong("warmup"), help: "Conversations replayed first and not counted.")
    var warmup: Int = 0

    @Flag(name: .customLong("show-answers"), help: "Print every answer in full (default: an excerpt).")
    var showAnswers = false

    func validate() throws {
        if repetitions < 1 { throw ValidationError("--repeat must be at least 1 (got \(repetitions))") }
        if warmup < 0 { throw ValidationError("--warmup must be 0 or more (got \(warmup))") }
    }

    func run() async throws {
        let loaded = try suites.loadSuites()
        let git = try recording.openRepository()
        let engine = try runtime.loadRuntime()
        let plan = RunPlan(suites: loaded, settings: RunSettings(cacheMode: cacheMode, repetitions: repetitions, warmupConversations: warmup))

        let digests = FileDigest(cacheURL: URL(fileURLWithPath: RuntimeOptions.cacheFolder).appendingPathComponent("digests.json"))
        let record = RunRecord(
            runId: ResultWriter.newRunId(), startedAt: Date(), command: CommandLine.arguments, git: git?.snapshot,
            machine: MachineInfo.current(), runtime: engine.identity,
            modelSha256: try? digests.sha256(ofFileAt: engine.identity.model.path), settings: plan.settings)
        let writer: ResultWriter
        do {
            writer = try ResultWriter(folder: URL(fileURLWithPath: recording.reportsFolder), record: record)
        } catch {
            throw failure("cannot write results into \(recording.reportsFolder): \(error.localizedDescription)", .runIncomplete)
        }

        print(RunHeader.render(engine.identity, cacheMode: cacheMode))
        print("commit    \(RunHeader.describe(git?.snapshot))")
        print("plan      \(loaded.count) suites, \(plan.conversationCount) conversations, \(plan.turnCount) turns (\(repetitions) repetitions, \(warmup) warm-up)\n")

        let stop = StopRequest()
        let trap = InterruptTrap(stop: stop)
        let progress = RunProgress(totalTurns: plan.turnCount)
        let final: RunRecord
        do {
            final = try await SuiteRunner(runtime: engine, plan: plan).run(into: record, writer: writer, stop: stop, observer: progress)
        } catch {
            await progress.finish()
            throw failure("could not write \(writer.resultURL.path): \(error.localizedDescription); finished turns are in \(writer.journalURL.path)", .runIncomplete)
        }
        await progress.finish()
        withExtendedLifetime(trap) {}

        print(RunReport.render(final, showAnswers: showAnswers))
        print("\nresult    \(writer.resultURL.path)")
        print("commit    \(final.git?.commit ?? "none (not a git repository)")")

        if recording.gitNote, let (repository, snapshot) = git, let commit = snapshot.commit {
            do {
                try repository.appendNote(try RunNote.line(for: final), to: commit)
                print("note      added to \(snapshot.shortCommit ?? commit) under refs/notes/chateval (share it: git push origin 'refs/notes/*')")
            } catch {
                warn("could not add the git note: \(error)")
            }
        }
        if final.status == .incomplete { throw failure("the run was interrupted; what was measured is in \(writer.resultURL.path)", .runIncomplete) }
        if final.gatesPassed == false {
            let failed = final.suites.flatMap { suite in suite.gates.filter { !$0.passed }.map { "\(suite.name): \($0.gate) \($0.expected), found \($0.found)" } }
            throw failure("gate failed — " + failed.joined(separator: "; "), .gateFailed)
        }
    }
}

extension CacheMode: ExpressibleByArgument {}
