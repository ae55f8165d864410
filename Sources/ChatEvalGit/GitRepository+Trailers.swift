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
        try LibGit2.withLock {
            var oid = git_oid()
            try check(git_oid_fromstr(&oid, id), "git_oid_fromstr")
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, pointer, &oid), "git_commit_lookup")
            defer { git_commit_free(commit) }
            return try trailerValues(named: key, of: commit)
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
