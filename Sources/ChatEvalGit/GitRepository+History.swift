internal import CGit2
import ChatEvalCore
import Foundation

/// A first-parent walk: the commits read, newest first, and whether it ended where a shallow
/// clone's history is cut rather than where the history or the walk's bounds end.
public struct FirstParentWalk: Sendable {
    public var commits: [CommitSummary]
    /// True when the last commit's first parent is not in the repository because the clone is
    /// shallow (`git clone --depth N`, `actions/checkout`'s default): older commits exist but
    /// were not fetched.
    public var endsAtShallowCut: Bool
}

extension GitRepository {
    /// The first-parent history of `revision` (default HEAD), newest first, as `git log
    /// --first-parent` lists it: on a branch that merges others in, one commit per merge, not
    /// the merged branches' own commits. See `firstParentWalk` for the arguments and errors.
    public func firstParentHistory(from revision: String = "HEAD", since: String? = nil, maxCount: Int? = nil) throws -> [CommitSummary] {
        try firstParentWalk(from: revision, since: since, maxCount: maxCount).commits
    }

    /// The first-parent history of `revision`, and whether a shallow clone cut it short.
    ///
    /// - `since`: stop at this commit, including it. It must be on that first-parent line
    ///   (`.notFound` otherwise, naming it), so that `--since v1.0` never silently walks the whole
    ///   history — unless a shallow clone's cut comes first (`endsAtShallowCut`).
    /// - `maxCount`: at most this many commits.
    ///
    /// Throws `.unbornHead` before the first commit, `.notFound` for unknown revisions, and
    /// `GitError` naming the libgit2 call for anything else. A parent missing from a shallow
    /// clone ends the walk; missing from any other repository it is an error.
    public func firstParentWalk(from revision: String = "HEAD", since: String? = nil, maxCount: Int? = nil) throws -> FirstParentWalk {
        try LibGit2.withLock {
            let stop = try since.map { try commitID(for: $0) }
            var next: git_oid? = try commitID(for: revision)
            var walk = FirstParentWalk(commits: [], endsAtShallowCut: false)
            var reachedStop = false
            // Parent by parent rather than git_revwalk: libgit2 1.5.1's walk does not know shallow
            // clones, and fails at their cut ("object not found") without giving what it read.
            while var id = next, maxCount.map({ walk.commits.count < $0 }) ?? true {
                var commit: OpaquePointer?
                let lookup = git_commit_lookup(&commit, pointer, &id)
                if lookup == GIT_ENOTFOUND.rawValue, !walk.commits.isEmpty, git_repository_is_shallow(pointer) == 1 {
                    walk.endsAtShallowCut = true
                    break
                }
                try check(lookup, "git_commit_lookup")
                defer { git_commit_free(commit) }
                walk.commits.append(try summary(of: commit, id: &id))
                if var target = stop, git_oid_equal(&id, &target) == 1 {
                    reachedStop = true
                    break
                }
                next = git_commit_parentcount(commit) > 0 ? git_commit_parent_id(commit, 0)?.pointee : nil
            }
            if let since, var target = stop, !reachedStop, !walk.endsAtShallowCut, maxCount.map({ walk.commits.count < $0 }) ?? true {
                throw GitError(
                    code: .notFound, pointOfFailure: "git_commit_parent_id",
                    message: "'\(since)' (\(hexString(of: &target).prefix(12))) is not on the first-parent history of \(revision)",
                    path: displayPath)
            }
            return walk
        }
    }

    /// Every note under `notesRef`: the commit it annotates and the id of the note's blob (which
    /// changes whenever the note's text does), and the notes ref's own commit — nil when there are
    /// no notes. Cheap: reads the notes tree, not the notes. Throws `.notesRefNotACommit` when the
    /// ref points at something else.
    public func noteListing(notesRef: String = chatEvalNotesRef) throws -> NoteListing {
        try LibGit2.withLock {
            guard var tip = try notesCommit(notesRef) else { return NoteListing(tip: nil, notes: [:]) }

            var iterator: OpaquePointer?
            let opened = git_note_iterator_new(&iterator, pointer, notesRef)
            if opened == GIT_ENOTFOUND.rawValue { return NoteListing(tip: hexString(of: &tip), notes: [:]) }
            try check(opened, "git_note_iterator_new")
            defer { git_note_iterator_free(iterator) }
            var notes: [String: String] = [:]
            var blob = git_oid(), annotated = git_oid()
            while true {
                let result = git_note_next(&blob, &annotated, iterator)
                if result == GIT_ITEROVER.rawValue { break }
                try check(result, "git_note_next")
                notes[hexString(of: &annotated)] = hexString(of: &blob)
            }
            return NoteListing(tip: hexString(of: &tip), notes: notes)
        }
    }

    /// The text of the blob `id` (a note's, from `noteListing`).
    public func blobText(_ id: String) throws -> String {
        try LibGit2.withLock {
            var oid = git_oid()
            try check(git_oid_fromstr(&oid, id), "git_oid_fromstr")
            var blob: OpaquePointer?
            try check(git_blob_lookup(&blob, pointer, &oid), "git_blob_lookup")
            defer { git_blob_free(blob) }
            let size = Int(git_blob_rawsize(blob))
            guard size > 0, let bytes = git_blob_rawcontent(blob) else { return "" }
            return String(decoding: UnsafeRawBufferPointer(start: bytes, count: size), as: UTF8.self)
        }
    }

    /// The commit `id`, looked up as `commit`, as a history shows it (inside the lock).
    func summary(of commit: OpaquePointer?, id: inout git_oid) throws -> CommitSummary {
        var shortID = git_buf()
        defer { git_buf_dispose(&shortID) }
        try check(git_object_short_id(&shortID, commit), "git_object_short_id")
        return CommitSummary(
            id: hexString(of: &id), shortId: shortID.ptr.map { String(cString: $0) } ?? String(hexString(of: &id).prefix(7)),
            subject: git_commit_summary(commit).map { String(cString: $0) } ?? "",
            time: Date(timeIntervalSince1970: TimeInterval(git_commit_time(commit))))
    }
}
