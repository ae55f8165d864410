import ChatEvalCore
import ChatEvalStore

/// What a conversation sent differently on head than on base — the inputs a commit can change
/// (its suites' system prompts, user messages, generation options, checks) — so that a
/// comparison says, next to what moved, what changed that could have moved it. Read from the
/// records' first measured replay of each conversation on each side. A user message that quotes
/// an earlier answer (`{{turn1.answer}}`) differs whenever that answer does: it is reported with
/// both texts, and the reader tells the changed input from the changed output.
public struct InputDifference: Codable, Sendable, Hashable {
    public enum Field: String, Codable, Sendable, Hashable {
        case systemPrompt = "system_prompt"
        case userMessage = "user_message"
        case options
        case checks
        case turns
        case conversation
    }

    public var suite: String
    public var conversation: String
    /// 1-based, for a user message or a turn's checks.
    public var turn: Int?
    public var field: Field
    /// Short excerpts of each side's value (around the first difference for long texts).
    public var base: String
    public var head: String

    /// One line: "memory/pet-name: system prompt "Be brief." → "Be brief. Today is …"".
    public var description: String {
        let place = "\(suite)/\(conversation)" + (turn.map { " turn \($0)" } ?? "")
        let what: String =
            switch field {
            case .systemPrompt: "system prompt"
            case .userMessage: "user message"
            case .options: "generation options"
            case .checks: "checks"
            case .turns: "turns"
            case .conversation: "conversation"
            }
        return "\(place): \(what) \(base) → \(head)"
    }
}

public enum InputDifferences {
    /// The differences between the first run of each side, suite by suite and conversation by
    /// conversation (in head's order; a conversation on one side only is listed as added or gone).
    public static func between(base: [RunRecord], head: [RunRecord]) -> [InputDifference] {
        guard let baseRun = base.first, let headRun = head.first else { return [] }
        var found: [InputDifference] = []
        for suite in headRun.suites {
            guard let baseSuite = baseRun.suites.first(where: { $0.name == suite.name }) else { continue }
            let baseReplays = firstReplays(baseSuite), headReplays = firstReplays(suite)
            for (id, headReplay) in headReplays {
                guard let baseReplay = baseReplays.first(where: { $0.0 == id })?.1 else {
                    found.append(InputDifference(suite: suite.name, conversation: id, field: .conversation, base: "absent", head: "added"))
                    continue
                }
                func add(_ field: InputDifference.Field, turn: Int? = nil, _ old: String, _ new: String) {
                    let (a, b) = excerpts(old, new)
                    found.append(InputDifference(suite: suite.name, conversation: id, turn: turn, field: field, base: a, head: b))
                }
                if baseReplay.systemPrompt != headReplay.systemPrompt {
                    add(.systemPrompt, baseReplay.systemPrompt ?? "(none)", headReplay.systemPrompt ?? "(none)")
                }
                if baseReplay.options != headReplay.options {
                    add(.options, describe(baseReplay.options), describe(headReplay.options))
                }
                if baseReplay.turns.count != headReplay.turns.count {
                    add(.turns, "\(baseReplay.turns.count)", "\(headReplay.turns.count)")
                }
                for (old, new) in zip(baseReplay.turns, headReplay.turns) {
                    if old.user != new.user { add(.userMessage, turn: new.index + 1, old.user, new.user) }
                    let oldChecks = (old.checks ?? []).map(\.check), newChecks = (new.checks ?? []).map(\.check)
                    if oldChecks != newChecks {
                        add(.checks, turn: new.index + 1, oldChecks.joined(separator: ", "), newChecks.joined(separator: ", "))
                    }
                }
            }
            for (id, _) in baseReplays where !headReplays.contains(where: { $0.0 == id }) {
                found.append(InputDifference(suite: suite.name, conversation: id, field: .conversation, base: "present", head: "gone"))
            }
        }
        return found
    }

    /// Each conversation's first measured replay, in suite order.
    private static func firstReplays(_ suite: SuiteRecord) -> [(String, ConversationRecord)] {
        var seen = Set<String>()
        return suite.conversations.filter(\.isMeasured).sorted { $0.repetition < $1.repetition }.compactMap {
            seen.insert($0.id).inserted ? ($0.id, $0) : nil
        }
    }

    private static func describe(_ options: GenerationOptions) -> String {
        "max_tokens \(options.maxTokens), temperature \(options.temperature), top_p \(options.topP), top_k \(options.topK), "
            + "seed \(options.seed)" + (options.stop.isEmpty ? "" : ", stop \(options.stop)")
    }

    /// Both texts quoted, cut to about 60 characters around where they first differ.
    static func excerpts(_ old: String, _ new: String) -> (String, String) {
        let a = Array(old), b = Array(new)
        var first = 0
        while first < min(a.count, b.count), a[first] == b[first] { first += 1 }
        func cut(_ text: [Character]) -> String {
            let start = max(0, first - 20)
            let end = min(text.count, start + 60)
            let body = String(text[start..<end]).replacingOccurrences(of: "\n", with: "⏎")
            return "\"" + (start > 0 ? "…" : "") + body + (end < text.count ? "…" : "") + "\""
        }
        return (cut(a), cut(b))
    }
}
