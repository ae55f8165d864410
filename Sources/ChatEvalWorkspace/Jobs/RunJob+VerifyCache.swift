import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalSuites
import Foundation

extension RunJob {
    /// `run --verify-cache`: every selected conversation replayed greedily with the session cache
    /// and cold, on each model in turn; nothing is recorded. Exit 1 naming the first turn whose
    /// answers differ; 3 when stopped before every conversation was verified.
    ///
    /// In process the cold replay evaluates each prompt in the engine calls the session replay's
    /// cache held it in (`PromptEvaluation`): llama.cpp's kernels sum in another order for a
    /// batch of 81 tokens than for 19, and a near-tie between two tokens could otherwise flip
    /// with no cache at fault. (Before, both replays evaluated one token per call for that, at
    /// several times the cost.) A server decides its own batches: the same holds unless it
    /// evaluates one token per call (llama-server `-ub 1`), which the header says and a failure's
    /// hint repeats.
    func verifyCaches(_ configuration: RunConfiguration, selection picked: SuiteSelection, served: ServedConfiguration) async throws {
        let head = configuration
        let suites = try shardOf(SuiteFiles.select(SuiteFiles.load(head.suitePaths), picked))
        let conversations = suites.reduce(0) { $0 + $1.conversations.count }
        var faults: [String] = []
        for variant in runVariants(head, served) {
            EngineHold.releaseAll(after: [])  // the previous model, before the next loads
            let opened = try await openRuntime(variant, head, served)
            output.info(RunHeader.render(opened.runtime.identity, cacheMode: .session))
            output.info(
                "verify    \(Format.count(conversations, "conversation")), each replayed greedily with the session cache and cold: "
                    + "the answers must be \(opened.connection == nil ? "token" : "text")-identical"
                    + (opened.connection == nil
                        ? " (cold in the session's engine calls, batch size \(head.batchSize): the same arithmetic both ways)"
                        : " (the server's batches decide its arithmetic: start llama-server with -ub 1 for the same arithmetic both ways)")
                    + "\n")
            let stop = StopRequest()
            let trap = InterruptTrap(stop: stop, expire: {}, cancel: {})
            let result = await CacheVerifier(runtime: opened.runtime).verify(suites, stop: stop) { conversation in
                for line in CacheVerificationReport.lines(conversation) { output.info(line) }
            }
            withExtendedLifetime(trap) {}
            await opened.connection?.shutdown()
            output.info("\n" + CacheVerificationReport.summary(result))
            guard result.complete else { throw failure("stopped before every conversation was verified", .runIncomplete) }
            faults += result.faults.compactMap { conversation in
                conversation.divergence.map { "\(variant.label): \(CacheVerificationReport.place(conversation, $0))" }
            }
            faults += result.conversations.compactMap { conversation in
                conversation.unanswered.map { "\(variant.label): \(conversation.suite)/\(conversation.conversation) \($0)" }
            }
        }
        guard faults.isEmpty else {
            let servedHint =
                served.openAI != nil
                ? " (served: unless the server evaluates one token per call, llama-server -ub 1, a cached and a cold prompt "
                    + "are summed in another order and a near-tie can flip with no cache at fault)" : ""
            throw failure("cache verification failed — " + faults.joined(separator: "; ") + servedHint, .gateFailed)
        }
    }

    /// The cache fault the test hook's environment variable asks for, refused when unknown.
    static func cacheFaultFromEnvironment() throws -> CacheFault? {
        guard let value = ProcessInfo.processInfo.environment[CacheFault.environmentVariable], !value.isEmpty else { return nil }
        guard let fault = CacheFault(rawValue: value) else {
            let known = CacheFault.allCases.map(\.rawValue).joined(separator: ", ")
            throw failure(
                "\(CacheFault.environmentVariable)=\(value): not a cache fault (known: \(known)); unset it for a real run", .badInput)
        }
        warn("\(CacheFault.environmentVariable)=\(value): the session cache is broken on purpose (a test hook)")
        return fault
    }
}
