import CGit2

/// Who wrote a git object (a note, here).
public struct GitSignature: Sendable, Equatable {
    public var name: String
    public var email: String

    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }

    /// Used when the caller gives no author and git config has no `user.name`/`user.email`.
    public static let fallback = GitSignature(name: "chateval", email: "chateval@localhost")
}

extension GitRepository {
    /// The notes ref ChatEval records runs under, kept apart from git's default `refs/notes/commits`.
    public static let chatEvalNotesRef = "refs/notes/chateval"

    /// Attaches `text` as the note on `commit` under `notesRef`, replacing any note already there.
    ///
    /// `commit` is any revision git understands (`HEAD`, a full or abbreviated id, a tag).
    /// The note is authored and committed by `author`, else by `user.name`/`user.email` from git
    /// config, else by `GitSignature.fallback`. Throws `GitError` (`.notFound` for an unknown commit).
    public func addNote(
        _ text: String, to commit: String, notesRef: String = chatEvalNotesRef, author: GitSignature? = nil
    ) throws {
        try LibGit2.withLock {
            var commitID = try commitID(for: commit)
            let signature = try makeSignature(author)
            defer { git_signature_free(signature) }
            var noteID = git_oid()
            try check(
                git_note_create(&noteID, pointer, notesRef, signature, signature, &commitID, text, 1),
                "git_note_create")
        }
    }

    /// The note on `commit` under `notesRef`, or nil if it has none. Throws `GitError`
    /// (`.notFound` for an unknown commit).
    public func note(for commit: String, notesRef: String = chatEvalNotesRef) throws -> String? {
        try LibGit2.withLock {
            var commitID = try commitID(for: commit)
            var note: OpaquePointer?
            let result = git_note_read(&note, pointer, notesRef, &commitID)
            if result == GIT_ENOTFOUND.rawValue { return nil }
            try check(result, "git_note_read")
            defer { git_note_free(note) }
            return git_note_message(note).map { String(cString: $0) }
        }
    }

    /// Resolves a revision to the id of the commit it names. Throws `.unbornHead` for `HEAD`
    /// before the first commit, `.notFound` for other unknown revisions.
    private func commitID(for revision: String) throws -> git_oid {
        var object: OpaquePointer?
        let result = git_revparse_single(&object, pointer, "\(revision)^{commit}")
        if result < 0 {
            let error = GitError(result: result, pointOfFailure: "git_revparse_single", path: displayPath)
            guard error.code == .notFound, revision == "HEAD", git_repository_head_unborn(pointer) == 1 else {
                throw error
            }
            throw GitError(
                code: .unbornHead, pointOfFailure: error.pointOfFailure, message: error.message,
                path: displayPath, errorClass: error.errorClass)
        }
        defer { git_object_free(object) }
        guard let id = git_object_id(object) else {
            throw GitError(code: .notFound, pointOfFailure: "git_object_id", message: "no id for \(revision)", path: displayPath)
        }
        return id.pointee
    }

    /// A signature stamped now; the caller frees it with `git_signature_free`.
    private func makeSignature(_ author: GitSignature?) throws -> UnsafeMutablePointer<git_signature>? {
        var signature: UnsafeMutablePointer<git_signature>?
        if author == nil, git_signature_default(&signature, pointer) == 0 {
            return signature
        }
        let chosen = author ?? .fallback
        try check(git_signature_now(&signature, chosen.name, chosen.email), "git_signature_now")
        return signature
    }
}
