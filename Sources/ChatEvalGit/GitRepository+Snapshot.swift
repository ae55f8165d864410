internal import CGit2
import ChatEvalCore
import Foundation

extension GitRepository {
    /// Reads HEAD, its commit and the working tree status. Works on repositories without
    /// commits (commit fields nil) and on bare ones (counts 0, as there is no working tree).
    /// Throws `GitError` if libgit2 cannot read the repository.
    public func snapshot() throws -> GitSnapshot {
        try LibGit2.withLock(readSnapshot)
    }

    private func readSnapshot() throws -> GitSnapshot {
        let head = try headReference()
        let isUnborn = git_repository_head_unborn(pointer)
        try check(isUnborn, "git_repository_head_unborn")
        let isShallow = git_repository_is_shallow(pointer)
        try check(isShallow, "git_repository_is_shallow")
        let status = try statusCounts()

        var snapshot = GitSnapshot(
            commit: nil, shortCommit: nil, branch: head.branch, isDetached: head.isDetached,
            isUnborn: isUnborn == 1, modifiedCount: status.modified, untrackedCount: status.untracked,
            commitTime: nil, commitTimeZoneOffsetMinutes: nil, subject: nil, describe: nil,
            isShallow: isShallow == 1, workdir: workdir)
        if isUnborn == 0 {
            try addHeadCommit(to: &snapshot)
        }
        return snapshot
    }

    /// Where HEAD points: a branch (`refs/heads/` stripped) or, when detached, no branch.
    private func headReference() throws -> (branch: String?, isDetached: Bool) {
        var head: OpaquePointer?
        try check(git_reference_lookup(&head, pointer, "HEAD"), "git_reference_lookup")
        defer { git_reference_free(head) }
        guard git_reference_type(head) == GIT_REFERENCE_SYMBOLIC,
            let target = git_reference_symbolic_target(head)
        else { return (nil, true) }
        let name = String(cString: target)
        let branchPrefix = "refs/heads/"
        return (name.hasPrefix(branchPrefix) ? String(name.dropFirst(branchPrefix.count)) : name, false)
    }

    private func addHeadCommit(to snapshot: inout GitSnapshot) throws {
        var commit: OpaquePointer?
        try check(git_revparse_single(&commit, pointer, "HEAD^{commit}"), "git_revparse_single")
        defer { git_object_free(commit) }
        try describeCommit(commit, into: &snapshot)
    }

    /// Fills the commit fields of `snapshot` (id, short id, time, subject, describe) from `commit`.
    func describeCommit(_ commit: OpaquePointer?, into snapshot: inout GitSnapshot) throws {
        snapshot.commit = git_commit_id(commit).map(hexString(of:))
        var shortID = git_buf()
        defer { git_buf_dispose(&shortID) }
        try check(git_object_short_id(&shortID, commit), "git_object_short_id")
        snapshot.shortCommit = shortID.ptr.map { String(cString: $0) }

        snapshot.commitTime = Date(timeIntervalSince1970: TimeInterval(git_commit_time(commit)))
        snapshot.commitTimeZoneOffsetMinutes = Int(git_commit_time_offset(commit))
        snapshot.subject = git_commit_summary(commit).map { String(cString: $0) }
        snapshot.describe = try describeWithTags(commit)
    }

    /// `git describe --tags` for `commit`, or nil when no tag reaches it.
    private func describeWithTags(_ commit: OpaquePointer?) throws -> String? {
        var options = git_describe_options()
        try check(
            git_describe_options_init(&options, UInt32(GIT_DESCRIBE_OPTIONS_VERSION)), "git_describe_options_init")
        options.describe_strategy = GIT_DESCRIBE_TAGS.rawValue

        var description: OpaquePointer?
        let result = git_describe_commit(&description, commit, &options)
        if result < 0 {
            let error = GitError(result: result, pointOfFailure: "git_describe_commit", path: displayPath)
            // No tags at all (-1, describe class) or none reachable from HEAD (GIT_ENOTFOUND,
            // also when a shallow clone's history is cut off before a tag).
            if error.code == .notFound || error.errorClass == Int32(GIT_ERROR_DESCRIBE.rawValue) { return nil }
            throw error
        }
        defer { git_describe_result_free(description) }

        var formatOptions = git_describe_format_options()
        try check(
            git_describe_format_options_init(&formatOptions, UInt32(GIT_DESCRIBE_FORMAT_OPTIONS_VERSION)),
            "git_describe_format_options_init")
        var text = git_buf()
        defer { git_buf_dispose(&text) }
        try check(git_describe_format(&text, description, &formatOptions), "git_describe_format")
        return text.ptr.map { String(cString: $0) }
    }

    /// Counts `git status --porcelain` entries: tracked changes and untracked (non-ignored) paths.
    private func statusCounts() throws -> (modified: Int, untracked: Int) {
        guard git_repository_is_bare(pointer) == 0 else { return (0, 0) }
        var options = git_status_options()
        try check(git_status_options_init(&options, UInt32(GIT_STATUS_OPTIONS_VERSION)), "git_status_options_init")
        options.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        options.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue

        var list: OpaquePointer?
        try check(git_status_list_new(&list, pointer, &options), "git_status_list_new")
        defer { git_status_list_free(list) }

        var counts = (modified: 0, untracked: 0)
        for index in 0..<git_status_list_entrycount(list) {
            guard let status = git_status_byindex(list, index)?.pointee.status.rawValue else { continue }
            if status & GIT_STATUS_WT_NEW.rawValue != 0 {
                counts.untracked += 1
            } else if status & ~GIT_STATUS_IGNORED.rawValue != 0 {
                counts.modified += 1
            }
        }
        return counts
    }
}

/// A git object id as 40 lowercase hex digits.
func hexString(of oid: UnsafePointer<git_oid>) -> String {
    var buffer = [CChar](repeating: 0, count: Int(GIT_OID_HEXSZ) + 1)
    return String(cString: git_oid_tostr(&buffer, buffer.count, oid))
}
