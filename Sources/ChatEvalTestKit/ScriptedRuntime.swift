import ChatEvalCore
import ChatEvalRuntime

/// A fake runtime that answers from a script and records every call, for tests of whatever
/// drives a runtime. An actor: calls are recorded in order, safely, from any task.
public actor ScriptedRuntime: ChatRuntime {
    /// What the fake saw, in order.
    public enum Event: Sendable, Hashable {
        case respond(messages: [ChatMessage], options: GenerationOptions)
        case resetSession
    }

    /// How the fake answers one turn.
    public enum Reply: Sendable {
        case answer([String], TurnMetrics)
        case failure(RuntimeFailure)
    }

    public nonisolated let identity: RuntimeIdentity
    public nonisolated var runsInProcess: Bool { false }
    public private(set) var events: [Event] = []
    private var replies: [Reply]
    private let answering: (@Sendable ([ChatMessage], GenerationOptions) -> Reply)?

    /// `replies` are used in order, one per turn; a turn beyond them fails with `invalidResponse`.
    public init(replies: [Reply]) {
        self.replies = replies
        answering = nil
        identity = Self.scriptedIdentity
    }

    /// Answers every turn with `answer(messages, options)`: the same conversation gets the same
    /// replies whatever ran before it.
    public init(answering answer: @escaping @Sendable ([ChatMessage], GenerationOptions) -> Reply) {
        replies = []
        answering = answer
        identity = Self.scriptedIdentity
    }

    private static var scriptedIdentity: RuntimeIdentity {
        RuntimeIdentity(
            engine: "scripted", build: "test", model: ModelIdentity(path: "/dev/null", fileBytes: 0, description: "scripted"),
            chatTemplate: "none", chatTemplateSource: "builtin", contextSize: 4096, batchSize: 512, threads: 1)
    }

    public nonisolated func respond(to messages: [ChatMessage], options: GenerationOptions) -> AsyncThrowingStream<ChatEvent, any Error> {
        AsyncThrowingStream { continuation in
            Task {
                switch await self.nextReply(messages: messages, options: options) {
                case .answer(let chunks, let metrics):
                    chunks.forEach { continuation.yield(.chunk($0)) }
                    continuation.yield(.info(metrics))
                    continuation.finish()
                case .failure(let failure):
                    continuation.finish(throwing: failure)
                }
            }
        }
    }

    public func resetSession() async {
        events.append(.resetSession)
    }

    private func nextReply(messages: [ChatMessage], options: GenerationOptions) -> Reply {
        events.append(.respond(messages: messages, options: options))
        if let answering { return answering(messages, options) }
        guard !replies.isEmpty else { return .failure(RuntimeFailure(.invalidResponse, "the script has no more replies")) }
        return replies.removeFirst()
    }

    /// Metrics with the given token counts and round timings, for scripted replies.
    public static func metrics(prompt: Int, reused: Int = 0, generated: Int = 4, stop: StopReason = .maxTokens) -> TurnMetrics {
        TurnMetrics(
            promptTokens: prompt, reusedTokens: reused, generatedTokens: generated, timeToFirstToken: 0.1,
            prefillTime: 0.08, decodeTime: Double(max(generated - 1, 0)) * 0.02, totalTime: 0.1 + Double(max(generated - 1, 0)) * 0.02,
            interTokenLatencies: Array(repeating: 0.02, count: max(generated - 1, 0)), stopReason: stop)
    }
}
