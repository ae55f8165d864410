internal import CLlama
import ChatEvalCore
import ChatEvalDigest
import Foundation

/// A chat template as llama.cpp's template API applies it: a built-in template by name
/// (`gemma`, `chatml`, `llama3`, ...) or the template stored in the model.
struct ChatTemplate: Sendable {
    /// What `llama_chat_apply_template` receives: a built-in name or the model's template text.
    let source: String
    /// "gemma", or "embedded" for the model's own template.
    let name: String
    /// "builtin" or "model".
    let origin: String

    /// Chooses the template: `requested` by name if given (or "embedded" for the model's), else
    /// the model's own. Never falls back silently: a model without a template needs a name.
    static func resolve(requested: String?, model: LlamaModel) throws(LlamaError) -> ChatTemplate {
        let builtins = LlamaBackend.builtinChatTemplates()
        switch requested {
        case let name? where name != "embedded":
            guard builtins.contains(name) else {
                let near = suggestions(for: name, among: builtins + ["embedded"]).first
                throw LlamaError(
                    .unknownChatTemplate,
                    "unknown chat template '\(name)'; "
                        + (near.map { "did you mean '\($0)'? (" } ?? "(")
                        + "`chateval templates` lists the \(builtins.count) llama.cpp knows, "
                        + "and 'embedded' is the model's own)")
            }
            return ChatTemplate(source: name, name: name, origin: "builtin")
        default:
            guard let embedded = model.embeddedChatTemplate else {
                let architecture = model.metadata("general.architecture") ?? "this"
                let hint =
                    builtins.first { architecture.hasPrefix($0) }.map { " (for \(architecture) models: --chat-template \($0))" } ?? ""
                throw LlamaError(.unknownChatTemplate, "the model \(model.path) stores no chat template; pass --chat-template NAME\(hint)")
            }
            let template = ChatTemplate(source: embedded, name: "embedded", origin: "model")
            guard template.render([.user("test")]) != nil else {
                throw LlamaError(
                    .unknownChatTemplate,
                    "llama.cpp's template API does not support the template stored in \(model.path); pass --chat-template NAME")
            }
            return template
        }
    }

    /// SHA-256 (hex) of the template source and its rendering of a fixed probe conversation.
    var fingerprint: String {
        let probe: [ChatMessage] = [.system("S"), .user("U1"), .assistant("A1"), .user("U2")]
        let material = source + "\u{0}" + (render(probe) ?? "")
        return SHA256Digest.hex(material)
    }

    /// The prompt for `messages`, ending with the opening of the assistant's answer; nil when the
    /// template cannot render them.
    func render(_ messages: [ChatMessage]) -> String? {
        let roles = messages.map { strdup($0.role.rawValue) }
        let contents = messages.map { strdup($0.content) }
        defer { (roles + contents).forEach { free($0) } }
        var chat = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
        let needed = llama_chat_apply_template(source, &chat, chat.count, true, nil, 0)
        guard needed >= 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        let written = llama_chat_apply_template(source, &chat, chat.count, true, &buffer, Int32(buffer.count))
        guard written == needed else { return nil }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
