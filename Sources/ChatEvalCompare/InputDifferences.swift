import ChatEvalCore
import ChatEvalStore

public enum InputDifferences {
    /// The differences between the first run of each side, suite by suite and conversation by
    /// conversation (in head's order; a conversation on one side only is listed as added or gone).
    public static func between(base: [RunRecord], head: [RunRecord]) -> [InputDifference] {
        guard let baseRun = base.first, let headRun = head.first else { return [] }
        var found: [InputDifference] = []
        for suite in headRun.suites {
            guard let baseSuite = baseRun.suites.first(where: { $0.name == suite.name }) else { continue }
            let baseReplays = firstReplays(baseSuite), headReplays = firstReplays(suite)
            // Looked up by id, not searched: 3,000 conversations a side were 9×10^6 compares.
            // (`firstReplays` lists each id once.)
            let baseById = Dictionary(baseReplays, uniquingKeysWith: { first, _ in first })
            let headIds = Set(headReplays.map(\.0))
            for (id, headReplay) in headReplays {
                guard let baseReplay = baseById[id] else {
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
            for (id, _) in baseReplays where !headIds.contains(id) {
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
