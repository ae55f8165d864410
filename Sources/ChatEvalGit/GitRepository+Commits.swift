internal import CGit2
import ChatEvalCore
import Foundation

extension GitRepository {
    /// The full id of the commit `revision` names (`HEAD`, `HEAD~1`, `main`, `origin/main`, a tag,
    /// an abbreviated id). Throws `.unbornHead` for `HEAD` before the first commit, `.notFound`
    /// for a revision the repository does not know.
    public func resolveCommit(_ revision: String) throws -> String {
        try LibGit2.withLock {
            var id = try commitID(for: revision)
            return hexString(of: &id)
        }
    }

    /// The short names of the repository's branches, remote branches and tags (`main`,
    /// `origin/main`, `v1.0`), sorted: what a mistyped revision is compared with.
    public func referenceNames() throws -> [String] {
        try LibGit2.withLock {
            var iterator: OpaquePointer?
            try check(git_reference_iterator_new(&iterator, pointer), "git_reference_iterator_new")
            defer { git_reference_iterator_free(iterator) }
            var names: [String] = []
            var name: UnsafePointer<CChar>?
            while true {
                let result = git_reference_next_name(&name, iterator)
                if result == GIT_ITEROVER.rawValue { break }
                try check(result, "git_reference_next_name")
                guard let name else { continue }
                let full = String(cString: name)
                for prefix in ["refs/heads/", "refs/remotes/", "refs/tags/"] where full.hasPrefix(prefix) {
                    names.append(String(full.dropFirst(prefix.count)))
                }
            }
            return names.sorted()
        }
    }

    /// The files under `paths` (files or folders, relative to the root, `/`-separated) that
    /// `revision` changed against its first parent (`git diff --name-only REV^ REV -- PATHS`), sorted;
    /// a root commit is compared with an empty tree. Reads the object database only.
    public func changedPaths(_ paths: [String], in revision: String) throws -> [String] {
        try LibGit2.withLock {
            try withCommitTree(of: revision) { commit, tree in try changedPaths(paths, commit: commit, tree: tree) }
        }
    }

    /// Every file `revision` changed against its first parent (`git diff --name-only REV^ REV`), sorted.
    public func changedFiles(in revision: String) throws -> [String] {
        try LibGit2.withLock {
            try withCommitTree(of: revision) { commit, tree in try changedPaths(nil, commit: commit, tree: tree) }
        }
    }

    /// The files changed under `paths`, or every file for nil.
    private func changedPaths(_ paths: [String]?, commit: OpaquePointer?, tree: OpaquePointer?) throws -> [String] {
        var parentTree: OpaquePointer?
        if git_commit_parentcount(commit) > 0 {
            var parent: OpaquePointer?
            try check(git_commit_parent(&parent, commit, 0), "git_commit_parent")
            defer { git_commit_free(parent) }
            try check(git_commit_tree(&parentTree, parent), "git_commit_tree")
        }
        defer { git_tree_free(parentTree) }
        var diff: OpaquePointer?
        try check(git_diff_tree_to_tree(&diff, pointer, parentTree, tree, nil), "git_diff_tree_to_tree")
        defer { git_diff_free(diff) }
        var changed: [String] = []
        for index in 0..<git_diff_num_deltas(diff) {
            guard let delta = git_diff_get_delta(diff, index) else { continue }
            for file in [delta.pointee.old_file, delta.pointee.new_file] {
                guard let raw = file.path else { continue }
                let path = String(cString: raw)
                let inside = paths?.contains { $0 == path || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") } ?? true
                if inside, !changed.contains(path) { changed.append(path) }
            }
        }
        return changed.sorted()
    }

    /// The state of an arbitrary commit, as a run recorded against it would show it: its id,
    /// subject, time and `describe`; no branch (it may be on several), nothing modified.
    public func snapshot(ofCommit revision: String) throws -> GitSnapshot {
        try LibGit2.withLock {
            var id = try commitID(for: revision)
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, pointer, &id), "git_commit_lookup")
            defer { git_commit_free(commit) }
            var snapshot = GitSnapshot(
                commit: nil, shortCommit: nil, branch: nil, isDetached: true, isUnborn: false, modifiedCount: 0, untrackedCount: 0,
                commitTime: nil, commitTimeZoneOffsetMinutes: nil, subject: nil, describe: nil,
                isShallow: git_repository_is_shallow(pointer) == 1, workdir: workdir)
            try describeCommit(commit, into: &snapshot)
            return snapshot
        }
    }

    /// The content of the file at `path` (relative to the repository root, `/`-separated) in
    /// `revision`'s tree, or nil when the commit has no such file. Reads the object database
    /// only: the working tree is not touched.
    public func file(_ path: String, at revision: String) throws -> Data? {
        try LibGit2.withLock {
            try withTreeEntry(path, at: revision) { entry in
                guard git_tree_entry_type(entry) == GIT_OBJECT_BLOB else { return nil }
                var blob: OpaquePointer?
                try check(git_blob_lookup(&blob, pointer, git_tree_entry_id(entry)), "git_blob_lookup")
                defer { git_blob_free(blob) }
                let size = Int(git_blob_rawsize(blob))
                guard size > 0, let bytes = git_blob_rawcontent(blob) else { return Data() }
                return Data(bytes: bytes, count: size)
            }
        }
    }

    /// Names of the files (not folders) directly in the folder `path` of `revision`'s tree,
    /// sorted; nil when there is no such folder. `""` is the root.
    public func files(inFolder path: String, at revision: String) throws -> [String]? {
        try LibGit2.withLock {
            let list: (OpaquePointer?) throws -> [String] = { tree in
                (0..<git_tree_entrycount(tree)).compactMap { index in
                    guard let entry = git_tree_entry_byindex(tree, index), git_tree_entry_type(entry) == GIT_OBJECT_BLOB,
                        let name = git_tree_entry_name(entry)
                    else { return nil }
                    return String(cString: name)
                }.sorted()
            }
            if path.isEmpty || path == "." {
                return try withTree(of: revision, list)
            }
            return try withTreeEntry(path, at: revision) { entry -> [String]? in
                guard git_tree_entry_type(entry) == GIT_OBJECT_TREE else { return nil }
                var tree: OpaquePointer?
                try check(git_tree_lookup(&tree, pointer, git_tree_entry_id(entry)), "git_tree_lookup")
                defer { git_tree_free(tree) }
                return try list(tree)
            }
        }
    }

    // MARK: Helpers (inside the lock)

    /// Resolves a revision to the id of the commit it names. Throws `.unbornHead` for `HEAD`
    /// before the first commit, `.notFound` for other unknown revisions.
    func commitID(for revision: String) throws -> git_oid {
        var object: OpaquePointer?
        let result = git_revparse_single(&object, pointer, "\(revision)^{commit}")
        if result < 0 {
            let error = GitError(result: result, pointOfFailure: "git_revparse_single", path: displayPath)
            if revision == "HEAD", git_repository_head_unborn(pointer) == 1 {
                throw GitError(
                    code: .unbornHead, pointOfFailure: error.pointOfFailure, message: error.message,
                    path: displayPath, errorClass: error.errorClass)
            }
            // An unknown or ambiguous name, or one that is not a commit: say which.
            if error.code == .notFound || error.code == .other(GIT_EAMBIGUOUS.rawValue) || error.code == .other(GIT_EINVALIDSPEC.rawValue)
                || error.code == .other(GIT_EPEEL.rawValue)
            {
                throw GitError(
                    code: .notFound, pointOfFailure: error.pointOfFailure,
                    message: "'\(revision)' names no commit (\(error.message))", path: displayPath, errorClass: error.errorClass)
            }
            throw error
        }
        defer { git_object_free(object) }
        guard let id = git_object_id(object) else {
            throw GitError(code: .notFound, pointOfFailure: "git_object_id", message: "no id for \(revision)", path: displayPath)
        }
        return id.pointee
    }

    private func withTree<T>(of revision: String, _ body: (OpaquePointer?) throws -> T) throws -> T {
        try withCommitTree(of: revision) { _, tree in try body(tree) }
    }

    /// Runs `body` on `revision`'s commit and its tree (both freed after).
    private func withCommitTree<T>(of revision: String, _ body: (OpaquePointer?, OpaquePointer?) throws -> T) throws -> T {
        var id = try commitID(for: revision)
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, pointer, &id), "git_commit_lookup")
        defer { git_commit_free(commit) }
        var tree: OpaquePointer?
        try check(git_commit_tree(&tree, commit), "git_commit_tree")
        defer { git_tree_free(tree) }
        return try body(commit, tree)
    }

    /// Runs `body` on the tree entry at `path`, or returns nil when there is none.
    private func withTreeEntry<T>(_ path: String, at revision: String, _ body: (OpaquePointer?) throws -> T?) throws -> T? {
        try withTree(of: revision) { tree in
            var entry: OpaquePointer?
            let result = git_tree_entry_bypath(&entry, tree, path)
            if result == GIT_ENOTFOUND.rawValue { return nil }
            try check(result, "git_tree_entry_bypath")
            defer { git_tree_entry_free(entry) }
            return try body(entry)
        }
    }
}

extension GitRepository {
    /// Writes every file of `revision`'s tree into `folder` (created if need be; files there are
    /// overwritten, others left), as `git worktree add` would check it out — but without a
    /// worktree entry, and without touching the repository's index, HEAD or working tree: a
    /// scratch copy of that commit to build and serve.
    public func export(_ revision: String, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try LibGit2.withLock {
            var id = try commitID(for: revision)
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, pointer, &id), "git_commit_lookup")
            defer { git_commit_free(commit) }
            var options = git_checkout_options()
            try check(git_checkout_options_init(&options, UInt32(GIT_CHECKOUT_OPTIONS_VERSION)), "git_checkout_options_init")
            options.checkout_strategy = GIT_CHECKOUT_FORCE.rawValue | GIT_CHECKOUT_DONT_UPDATE_INDEX.rawValue
            try folder.path.withCString { target in
                options.target_directory = target
                try check(git_checkout_tree(pointer, commit, &options), "git_checkout_tree")
            }
        }
    }
}
