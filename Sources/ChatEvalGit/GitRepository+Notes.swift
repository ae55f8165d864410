internal import CGit2
import Foundation

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

    /// Appends `line` to the note on `commit` under `notesRef` (creating the note if there is
    /// none), so that every run of a commit keeps its own line. Returns the note's new text.
    ///
    /// Safe against concurrent writers that compare before they swap, as ChatEval does (not
    /// `git notes`, which moves the ref without checking it): the new notes commit is built on
    /// the notes ref as read, and the ref moves to it only if nobody moved it meanwhile
    /// (`git_reference_create_matching`); otherwise the append is redone on the newer notes, up
    /// to `attempts` times. Line-oriented notes also merge cleanly across clones with
    /// `git notes merge -s cat_sort_uniq`.
    @discardableResult
    public func appendNote(
        _ line: String, to commit: String, notesRef: String = chatEvalNotesRef, author: GitSignature? = nil, attempts: Int = 100
    ) throws -> String {
        let trimmed = line.trimmingCharacters(in: .newlines)
        var lastError: GitError?
        for attempt in 0..<attempts {
            // Two steps, each under the lock: other writers (in this process too) may move the ref
            // in between, which the compare-and-swap of the second step detects.
            let prepared = try LibGit2.withLock { try prepareAppend(trimmed, to: commit, notesRef: notesRef, author: author) }
            do {
                try LibGit2.withLock { try moveNotesRef(notesRef, to: prepared) }
                return prepared.text
            } catch let error as GitError
                where [GIT_EMODIFIED, GIT_ELOCKED, GIT_EEXISTS].contains(where: { error.code == .other($0.rawValue) })
            {
                lastError = error
                usleep(useconds_t(500 * (1 + attempt % 8)))  // another writer got there first: read again
            }
        }
        throw lastError
            ?? GitError(
                code: .other(GIT_EMODIFIED.rawValue), pointOfFailure: "git_reference_create_matching",
                message: "the notes ref kept changing", path: displayPath)
    }

    /// A notes commit holding the appended note, and the notes commit it was built on.
    private struct PreparedAppend {
        var newNotes: git_oid
        var previousNotes: git_oid?
        var text: String
    }

    private func prepareAppend(_ line: String, to commit: String, notesRef: String, author: GitSignature?) throws -> PreparedAppend {
        var commitID = try commitID(for: commit)
        let signature = try makeSignature(author)
        defer { git_signature_free(signature) }

        let currentNotes = try notesCommit(notesRef)
        var parent: OpaquePointer?
        if var tip = currentNotes { try check(git_commit_lookup(&parent, pointer, &tip), "git_commit_lookup") }
        defer { git_commit_free(parent) }

        var existing = ""
        if let parent {
            var note: OpaquePointer?
            let read = git_note_commit_read(&note, pointer, parent, &commitID)
            if read != GIT_ENOTFOUND.rawValue {
                try check(read, "git_note_commit_read")
                existing = git_note_message(note).map { String(cString: $0) } ?? ""
                git_note_free(note)
            }
        }
        if !existing.isEmpty && !existing.hasSuffix("\n") { existing += "\n" }
        let text = existing + line + "\n"
        var newNotes = git_oid()
        try check(
            git_note_commit_create(&newNotes, nil, pointer, parent, signature, signature, &commitID, text, 1), "git_note_commit_create")
        return PreparedAppend(newNotes: newNotes, previousNotes: currentNotes, text: text)
    }

    /// Moves `notesRef` to the prepared notes commit if it still points where it did.
    private func moveNotesRef(_ notesRef: String, to prepared: PreparedAppend) throws {
        var reference: OpaquePointer?
        var target = prepared.newNotes
        if var previous = prepared.previousNotes {
            try check(
                git_reference_create_matching(&reference, pointer, notesRef, &target, 1, &previous, "chateval: add a run"),
                "git_reference_create_matching")
        } else {
            try check(git_reference_create(&reference, pointer, notesRef, &target, 0, "chateval: first run"), "git_reference_create")
        }
        git_reference_free(reference)
    }

    /// The note on `commit` under `notesRef`, or nil if it has none. Throws `GitError`
    /// (`.notFound` for an unknown commit).
    public func note(for commit: String, notesRef: String = chatEvalNotesRef) throws -> String? {
        try LibGit2.withLock {
            var commitID = try commitID(for: commit)
            guard try notesCommit(notesRef) != nil else { return nil }
            var note: OpaquePointer?
            let result = git_note_read(&note, pointer, notesRef, &commitID)
            if result == GIT_ENOTFOUND.rawValue { return nil }
            try check(result, "git_note_read")
            defer { git_note_free(note) }
            return git_note_message(note).map { String(cString: $0) }
        }
    }

    /// The commit `notesRef` points to; nil when there is no such ref (call inside the lock).
    /// Throws `.notesRefNotACommit` when it points at anything else (a blob written by hand or by
    /// another tool): libgit2 1.5.1 iterates such a ref's "notes" out of whatever object it is, and
    /// crashes about one time in three.
    func notesCommit(_ notesRef: String) throws -> git_oid? {
        var tip = git_oid()
        let lookup = git_reference_name_to_id(&tip, pointer, notesRef)
        if lookup == GIT_ENOTFOUND.rawValue { return nil }
        try check(lookup, "git_reference_name_to_id")
        var object: OpaquePointer?
        try check(git_object_lookup(&object, pointer, &tip, GIT_OBJECT_ANY), "git_object_lookup")
        defer { git_object_free(object) }
        let type = git_object_type(object)
        guard type == GIT_OBJECT_COMMIT else {
            let kind = git_object_type2string(type).map { String(cString: $0) } ?? "object of type \(type.rawValue)"
            throw GitError(
                code: .notesRefNotACommit(notesRef), pointOfFailure: "git_object_type",
                message: "\(notesRef) points at a \(kind) (\(hexString(of: &tip).prefix(12))), not a notes commit", path: displayPath)
        }
        return tip
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
