internal import CGit2
import ChatEvalCore
import Foundation

extension GitRepository {
    /// The first-parent history of `revision` (default HEAD), newest first, as `git log
    /// --first-parent` lists it: on a branch that merges others in, one commit per merge, not
    /// the merged branches' own commits.
    ///
    /// - `since`: stop at this commit, including it. It must be on that first-parent line
    ///   (`.notFound` otherwise, naming it), so that `--since v1.0` never silently walks the whole
    ///   history.
    /// - `maxCount`: at most this many commits.
    ///
    /// Throws `.unbornHead` before the first commit, `.notFound` for unknown revisions, and
    /// `GitError` naming the libgit2 call for anything else (a shallow clone simply ends where
    /// its history is cut).
    public func firstParentHistory(from revision: String = "HEAD", since: String? = nil, maxCount: Int? = nil) throws -> [CommitSummary] {
        try LibGit2.withLock {
            var start = try commitID(for: revision)
            let stop = try since.map { try commitID(for: $0) }

            var walk: OpaquePointer?
            try check(git_revwalk_new(&walk, pointer), "git_revwalk_new")
            defer { git_revwalk_free(walk) }
            try check(git_revwalk_sorting(walk, GIT_SORT_NONE.rawValue), "git_revwalk_sorting")
            try check(git_revwalk_simplify_first_parent(walk), "git_revwalk_simplify_first_parent")
            try check(git_revwalk_push(walk, &start), "git_revwalk_push")

            var commits: [CommitSummary] = []
            var reachedStop = false
            var id = git_oid()
            while maxCount.map({ commits.count < $0 }) ?? true {
                let result = git_revwalk_next(&id, walk)
                if result == GIT_ITEROVER.rawValue { break }
                try check(result, "git_revwalk_next")
                commits.append(try summary(of: &id))
                if var target = stop, git_oid_equal(&id, &target) == 1 {
                    reachedStop = true
                    break
                }
            }
            if let since, var target = stop, !reachedStop, maxCount.map({ commits.count < $0 }) ?? true {
                throw GitError(
                    code: .notFound, pointOfFailure: "git_revwalk_next",
                    message: "'\(since)' (\(hexString(of: &target).prefix(12))) is not on the first-parent history of \(revision)",
                    path: displayPath)
            }
            return commits
        }
    }

    /// Every note under `notesRef`: the commit it annotates and the id of the note's blob (which
    /// changes whenever the note's text does), and the notes ref's own commit — nil when there are
    /// no notes. Cheap: reads the notes tree, not the notes.
    public func noteListing(notesRef: String = chatEvalNotesRef) throws -> NoteListing {
        try LibGit2.withLock {
            var tip = git_oid()
            let lookup = git_reference_name_to_id(&tip, pointer, notesRef)
            if lookup == GIT_ENOTFOUND.rawValue { return NoteListing(tip: nil, notes: [:]) }
            try check(lookup, "git_reference_name_to_id")

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

    /// The commit `id` as a history shows it (inside the lock).
    private func summary(of id: inout git_oid) throws -> CommitSummary {
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, pointer, &id), "git_commit_lookup")
        defer { git_commit_free(commit) }
        var shortID = git_buf()
        defer { git_buf_dispose(&shortID) }
        try check(git_object_short_id(&shortID, commit), "git_object_short_id")
        return CommitSummary(
            id: hexString(of: &id), shortId: shortID.ptr.map { String(cString: $0) } ?? String(hexString(of: &id).prefix(7)),
            subject: git_commit_summary(commit).map { String(cString: $0) } ?? "",
            time: Date(timeIntervalSince1970: TimeInterval(git_commit_time(commit))))
    }
}
