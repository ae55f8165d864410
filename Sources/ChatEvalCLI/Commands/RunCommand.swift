import ArgumentParser
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRuntime
import ChatEvalSuites
import Foundation

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Replay suites against the model and print per-turn measurements.")

    @OptionGroup var suites: SuiteOptions
    @OptionGroup var runtime: RuntimeOptions

    @Option(name: .customLong("cache-mode"), help: "session: reuse the KV cache across turns, as a chat app does; cold: re-evaluate the whole history every turn.")
    var cacheMode: CacheMode = .session

    @Flag(name: .customLong("show-answers"), help: "Print every answer in full (default: an excerpt).")
    var showAnswers = false

    func run() async throws {
        let loaded = try suites.loadSuites()
        let engine = try runtime.loadRuntime()
        print(RunHeader.render(engine.identity, cacheMode: cacheMode))

        let replayer = ConversationReplayer(runtime: engine, cacheMode: cacheMode)
        var failedTurns = 0
        for suite in loaded {
            print("\nsuite \(suite.name) — \(suite.path) (\(suite.conversations.count) conversations, \(suite.turnCount) turns)")
            var answered: [TurnMetrics] = []
            for conversation in suite.conversations {
                let turns = await replayer.replay(conversation.script)
                print("\n  \(conversation.id)")
                print(TurnTable.render(conversation: conversation.id, turns: turns, indent: "    "))
                for turn in turns {
                    print(AnswerLines.render(turn, full: showAnswers, indent: "    "))
                }
                answered += turns.compactMap(\.metrics)
                failedTurns += turns.filter { $0.status == .failed }.count
            }
            print("\n" + SuiteSummary.render(answered, indent: "  "))
        }
        if Task.isCancelled { throw failure("the run was interrupted", .runIncomplete) }
        _ = failedTurns
    }
}

extension CacheMode: ExpressibleByArgument {}
