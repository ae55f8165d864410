import ChatEvalCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Which conversations of the loaded suites a run replays: all of them, or those picked by
/// pattern (`--filter`), by tag (`--tag`) or by id after a suite path (`suite.yaml#id`).
///
/// A conversation is kept when it passes every kind of selection given: it matches one of the
/// patterns, carries one of the wanted tags and none of the excluded ones (`--tag '!slow'`), and,
/// for a suite named with `#ids`, is one of those ids. Suites left with no conversation are
/// dropped. The result keeps the suites' order and their conversations' order.
public struct SuiteSelection: Sendable, Hashable, Codable {
    /// Shell-style patterns (`*`, `?`, `[...]`), matched against `suite/conversation`; a pattern
    /// without `/` may also match the suite name or the conversation id alone.
    public var patterns: [String]
    /// Tags to keep (any of them) and, written `!tag`, tags to leave out.
    public var tags: [String]
    /// Conversation ids picked per suite file (the part after `#` in `suite.yaml#id,id`).
    public var conversationsByPath: [String: [String]]

    public init(patterns: [String] = [], tags: [String] = [], conversationsByPath: [String: [String]] = [:]) {
        self.patterns = patterns
        self.tags = tags
        self.conversationsByPath = conversationsByPath
    }

    public var isEmpty: Bool { patterns.isEmpty && tags.isEmpty && conversationsByPath.isEmpty }

    /// `path#id,id` split into the path and the ids (none without `#`). A `#` that is part of an
    /// existing file's name stays in the path.
    public static func splitPath(_ argument: String, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
        -> (path: String, conversations: [String])
    {
        guard let hash = argument.lastIndex(of: "#"), !fileExists(argument) else { return (argument, []) }
        let ids = argument[argument.index(after: hash)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        return (String(argument[..<hash]), ids)
    }

    /// The selected suites, or a sentence saying what matched nothing and what there is.
    public func apply(to suites: [Suite]) -> Result<[Suite], SelectionError> {
        for (path, ids) in conversationsByPath {
            let suitesAtPath = suites.filter { Self.samePath($0.path, path) }
            if suitesAtPath.isEmpty {
                return .failure(
                    SelectionError(
                        message:
                            "\(path)#\(ids.joined(separator: ",")): the #id form picks conversations of one suite file, "
                            + "and \(path) is not one"
                    ))
            }
            // A conversation under variants answers to its own id and to the id before "@variant".
            var known: [String] = []
            for id in suitesAtPath.flatMap({ $0.conversations.flatMap { [$0.baseID, $0.id] } }) where !known.contains(id) {
                known.append(id)
            }
            for id in ids where !known.contains(id) {
                let near =
                    suggestions(for: id, among: known).first.map { "; did you mean '\($0)'?" }
                    ?? "; it has: \(known.joined(separator: ", "))"
                return .failure(SelectionError(message: "\(path) has no conversation '\(id)'\(near)"))
            }
        }
        let wanted = tags.filter { !$0.hasPrefix("!") }
        let excluded = tags.filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) }
        var selected: [Suite] = []
        for suite in suites {
            var kept = suite
            let ids = conversationsByPath.first { Self.samePath(suite.path, $0.key) }?.value
            kept.conversations = suite.conversations.filter { conversation in
                (ids.map { $0.contains(conversation.id) || $0.contains(conversation.baseID) } ?? true)
                    && (patterns.isEmpty
                        || patterns.contains {
                            Self.matches($0, suite: suite.name, conversation: conversation.id)
                                || Self.matches($0, suite: suite.name, conversation: conversation.baseID)
                        })
                    && (wanted.isEmpty || conversation.tags.contains(where: wanted.contains))
                    && !conversation.tags.contains(where: excluded.contains)
            }
            if !kept.conversations.isEmpty { selected.append(kept) }
        }
        guard selected.isEmpty && !suites.isEmpty else { return .success(selected) }
        let given = (patterns.map { "--filter \($0)" } + tags.map { "--tag \($0)" }).joined(separator: " ")
        let all = suites.flatMap { suite in
            suite.conversations.map { "\(suite.name)/\($0.id)" + ($0.tags.isEmpty ? "" : " [\($0.tags.joined(separator: ", "))]") }
        }
        return .failure(
            SelectionError(
                message:
                    "no conversation matches \(given.isEmpty ? "the selection" : given); "
                    + "there are: \(all.prefix(30).joined(separator: ", "))"
                    + (all.count > 30 ? ", …" : "")))
    }

    /// Whether `pattern` matches `suite/conversation` (or, without a `/`, either part), with
    /// fnmatch(3): the C library's shell-pattern matcher, rather than a hand-written one.
    static func matches(_ pattern: String, suite: String, conversation: String) -> Bool {
        func match(_ text: String) -> Bool { fnmatch(pattern, text, 0) == 0 }
        if pattern.contains("/") { return match("\(suite)/\(conversation)") }
        return match(suite) || match(conversation)
    }

    private static func samePath(_ a: String, _ b: String) -> Bool {
        a == b || URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path
    }
}
