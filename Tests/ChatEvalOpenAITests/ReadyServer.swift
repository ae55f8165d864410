import ChatEvalOpenAI
import ChatEvalTestKit
import Foundation
import Testing

/// A connection to a server a test started, once it answers (120 s at most); nil, with the
/// issue recorded beside the end of the server's log, when it never does.
func connectionWhenReady(
    to server: LocalLlamaServer.Running, named name: String, modelName: String, requestTimeout: Double
) async throws -> OpenAIConnection? {
    do {
        try await OpenAIConnection.waitUntilReady(baseURL: server.baseURL, timeout: 120)
    } catch {
        Issue.record("\(name) did not start: \(error)\n\(LocalLlamaServer.tail(of: server))")
        return nil
    }
    return try await OpenAIConnection.open(
        OpenAIConfiguration(baseURL: server.baseURL, modelName: modelName, requestTimeout: requestTimeout))
}
