import ArgumentParser
import ChatEvalLlama

struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "List the chat templates llama.cpp can apply by name.")

    func run() throws {
        say(LlamaChatRuntime.builtinChatTemplates.joined(separator: "\n"))
    }
}
