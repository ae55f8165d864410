internal import CGit2
import ChatEvalCore
import Foundation

/// A commit a head adds to its base, with the values of one trailer key in its message.
public struct TrailedCommit: Sendable, Hashable {
    public var commit: CommitSummary
    /// True for a commit of two or more parents, whose content comes from them.
    public var isMerge: Bool
    public var values: [String]

    public init(commit: CommitSummary, isMerge: Bool, values: [String]) {
        self.commit = commit
        self.isMerge = isMerge
        self.values = values
    }
}

extension GitRepository {
    /// The values of the `key` trailers (`Key: value` lines ending a commit message, as `git
    /// interpret-trailers` reads them; libgit2's `git_message_trailers`, the key matched without
    /// regard to case) of every commit `head` adds to `base`: reachable from `head` and not from
    /// `base` (`git log BASE..HEAD`, a revwalk with the base hidden), merge commits and the commits
    /// they merge included — a pull request's merge commit (its first parent the base) reads the
    /// pull request's own commits. A head forked from the base's line reads the commits after
    /// their merge base. Newest first (topological, then by time); at most `maxCount` commits.
    ///
    /// libgit2 1.5.1's walk does not know shallow clones: one that does not hold the commits
    /// between `base` and `head` fails with `.notFound`, saying so.
    public func trailers(named key: String, from head: String, after base: String, maxCount: Int = 1000) throws -> [TrailedCommit] {
        try LibGit2.withLock {
            var headID = try commitID(for: head), baseID = try commitID(for: base)
            var walk: OpaquePointer?
            try check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
            defer { git_revwalk_free(walk) }
            try check(git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue), "git_revwalk_sorting")
            try check(git_revwalk_push(walk, &headID), "git_revwalk_push")
            try check(git_revwalk_hide(walk, &baseID), "git_revwalk_hide")
            var found: [TrailedCommit] = []
            var id = git_oid()
            while found.count < maxCount {
                let next = git_revwalk_next(&id, walk)
                if next == GIT_ITEROVER.rawValue { break }
                if next == GIT_ENOTFOUND.rawValue, git_repository_is_shallow(pointer) == 1 {
                    throw GitError(
                        code: .notFound, pointOfFailure: "git_revwalk_next",
                        message: "this shallow clone does not hold every commit between \(base) and \(head); "
                            + "fetch the history (`fetch-depth: 0`, or `git fetch --unshallow`)",
                        path: displayPath)
                }
                try check(next, "git_revwalk_next")
                var commit: OpaquePointer?
                try check(git_commit_lookup(&commit, pointer, &id), "git_commit_lookup")
                defer { git_commit_free(commit) }
                found.append(
                    TrailedCommit(
                        commit: try summary(of: commit, id: &id), isMerge: git_commit_parentcount(commit) > 1,
                        values: try trailerValues(named: key, of: commit)))
            }
            return found
        }
    }

    /// The `key` trailers of one commit's message.
    public func trailerValues(named key: String, ofCommit id: String) throws -> [String] {
        try withCommit(id) { try trailerValues(named: key, of: $0) }
    }

    /// `body` with the commit whose full id is `id`, inside the lock; the commit freed after.
    private func withCommit<T>(_ id: String, _ body: (OpaquePointer?) throws -> T) throws -> T {
        try LibGit2.withLock {
            var oid = git_oid()
            try check(git_oid_fromstr(&oid, id), "git_oid_fromstr")
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, pointer, &oid), "git_commit_lookup")
            defer { git_commit_free(commit) }
            return try body(commit)
        }
    }

    /// The `key` trailers of `commit`'s message (inside the lock).
    private func trailerValues(named key: String, of commit: OpaquePointer?) throws -> [String] {
        guard let message = git_commit_message(commit) else { return [] }
        var trailers = git_message_trailer_array()
        try check(git_message_trailers(&trailers, message), "git_message_trailers")
        defer { git_message_trailer_array_free(&trailers) }
        var values: [String] = []
        for index in 0..<trailers.count {
            let trailer = trailers.trailers[index]
            guard let name = trailer.key.map({ String(cString: $0) }), name.lowercased() == key.lowercased(),
                let value = trailer.value.map({ String(cString: $0) })
            else { continue }
            values.append(value.trimmingCharacters(in: .whitespaces))
        }
        return values
    }

    /// The lines of a commit's message that look like `key` trailers (`Key: value`, the key
    /// matched without regard to case) but that git does not read as trailers, and why; nil when
    /// every such line is read. libgit2's `git_message_trailers` (as `git interpret-trailers
    /// --parse`) reads trailers only from the message's last paragraph, and only when every line
    /// of it is a trailer (or a continuation): one line of prose there silently drops every
    /// trailer of the commit.
    public func unreadTrailers(named key: String, ofCommit id: String) throws -> UnreadTrailers? {
        try withCommit(id) { commit in
            guard let message = git_commit_message(commit) else { return nil }
            return UnreadTrailers(message: String(cString: message), key: key, read: try trailerValues(named: key, of: commit).count)
        }
    }

    /// The best common ancestor of two revisions (`git merge-base`), nil when they share none.
    public func mergeBase(_ one: String, _ other: String) throws -> String? {
        try LibGit2.withLock {
            var first = try commitID(for: one), second = try commitID(for: other)
            var base = git_oid()
            let result = git_merge_base(&base, pointer, &first, &second)
            if result == GIT_ENOTFOUND.rawValue { return nil }
            try check(result, "git_merge_base")
            return hexString(of: &base)
        }
    }
}

/// Lines of a commit message that look like trailers of one key but that git does not read as
/// trailers, and why (`GitRepository.unreadTrailers(named:ofCommit:)`).
public struct UnreadTrailers: Sendable, Hashable {
    /// The lines, as written.
    public var lines: [String]
    /// Why git does not read them, in a sentence.
    public var reason: String

    /// Nil when `message` holds no more `key:` lines than the `read` trailers git found.
    init?(message: String, key: String, read: Int) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
        // The first paragraph is the subject: never trailers, whatever it looks like.
        let subjectEnd = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).isEmpty } ?? lines.count
        let looking = lines.indices.filter { $0 >= subjectEnd && Self.trailerKey(of: lines[$0])?.lowercased() == key.lowercased() }
        guard looking.count > read else { return nil }
        self.lines = looking.map { lines[$0] }
        // The last paragraph: the lines after the last blank line that has text after it.
        let last = lines.lastIndex { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? 0
        let start = (lines[..<last].lastIndex { $0.trimmingCharacters(in: .whitespaces).isEmpty }).map { $0 + 1 } ?? 0
        let paragraph = lines[start...last]
        if looking.contains(where: { $0 >= start }),
            let prose = paragraph.first(where: { Self.trailerKey(of: $0) == nil && $0.first?.isWhitespace != true })
        {
            let shown = prose.count > 60 ? prose.prefix(59) + "…" : Substring(prose)
            reason =
                "the message's last paragraph also holds \"\(shown)\", which is not a trailer, and git reads trailers only from "
                + "a last paragraph of trailers alone (`git interpret-trailers --parse` shows what it reads)"
        } else if looking.contains(where: { $0 >= start }) {
            reason = "git does not read that paragraph as trailers (`git interpret-trailers --parse` shows what it reads)"
        } else {
            reason = "they are not in the message's last paragraph, the only one git reads trailers from"
        }
    }

    /// The key of a `Key: value` line (letters, digits and `-`, then optional spaces and a
    /// colon, as git's trailer separator), else nil.
    static func trailerKey(of line: String) -> String? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[..<colon].trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, line.first?.isWhitespace != true, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        return key
    }
}
