internal import CGit2
import ChatEvalCore
import Foundation

extension GitRepository {
    /// The values of the `key` trailers (`Key: value` lines ending a commit message, as `git
    /// interpret-trailers` reads them; libgit2's `git_message_trailers`, the key matched without
    /// regard to case) of each commit after `base` on the first-parent line up to `head`, newest
    /// first, with the commit. When `base` is not on that line (a branch that forked from it), the
    /// commits after the merge base. At most `maxCount` commits are read.
    public func trailers(named key: String, from head: String, after base: String, maxCount: Int = 1000)
        throws -> [(commit: CommitSummary, values: [String])]
    {
        var stop = base
        let walk: FirstParentWalk
        do {
            walk = try firstParentWalk(from: head, since: base, maxCount: maxCount)
        } catch let error as GitError where error.code == .notFound {
            guard let common = try mergeBase(head, base) else { return [] }
            stop = common
            walk = try firstParentWalk(from: head, since: common, maxCount: maxCount)
        }
        let stopID = try resolveCommit(stop)
        let commits = walk.commits.filter { $0.id != stopID }
        return try commits.map { commit in (commit, try trailerValues(named: key, ofCommit: commit.id)) }
    }

    /// The `key` trailers of one commit's message.
    public func trailerValues(named key: String, ofCommit id: String) throws -> [String] {
        try LibGit2.withLock {
            var oid = git_oid()
            try check(git_oid_fromstr(&oid, id), "git_oid_fromstr")
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, pointer, &oid), "git_commit_lookup")
            defer { git_commit_free(commit) }
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
