import ArgumentParser
import ChatEvalLlama
import ChatEvalWorkspace

struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates", abstract: "List the chat templates llama.cpp can apply by name.",
        discussion: """
            For a model that stores no chat template (Gemma 3 270M base, for one), name one with --chat-template.

            Examples:
              chateval templates
              chateval run --model gemma-3-270m-q4_k_m.gguf --chat-template gemma
            """)

    func run() throws {
        say(LlamaChatRuntime.builtinChatTemplates.joined(separator: "\n"))
    }
}
