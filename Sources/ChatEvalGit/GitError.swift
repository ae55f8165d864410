internal import CGit2

/// A failed libgit2 call, or a repository ChatEval refuses to open.
public struct GitError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in terms a caller can act on.
    public enum Code: Sendable, Equatable {
        /// No repository was found at the path (or, when discovering, at any parent).
        case notARepository
        /// The repository belongs to another user and no `safe.directory` entry trusts it.
        case dubiousOwnership
        /// The operation needs a commit, but the repository has none yet.
        case unbornHead
        /// A named object, reference or revision does not exist.
        case notFound
        /// The notes ref (named) points at an object that is not a commit, such as a blob: no
        /// notes can be read from it, and libgit2 1.5.1 crashes trying.
        case notesRefNotACommit(String)
        /// Any other libgit2 failure, with libgit2's (negative) result code.
        case other(Int32)
    }

    /// What went wrong.
    public let code: Code
    /// The libgit2 function that failed, for example `git_repository_open_ext`.
    public let pointOfFailure: String
    /// libgit2's own message (from `git_error_last()`), or ChatEval's where it decided the failure.
    public let message: String
    /// The repository or starting path involved, when known.
    public let path: String?
    /// libgit2's error class (`git_error_t`), or 0 when unknown. Used to recognise ownership refusals.
    let errorClass: Int32

    init(code: Code, pointOfFailure: String, message: String, path: String?, errorClass: Int32 = 0) {
        self.code = code
        self.pointOfFailure = pointOfFailure
        self.message = message
        self.path = path
        self.errorClass = errorClass
    }

    /// Builds an error from a negative libgit2 result, reading libgit2's last error message.
    init(result: Int32, pointOfFailure: String, path: String?) {
        let last = git_error_last()
        let message = last.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "no message from libgit2"
        let code: Code =
            switch result {
            case GIT_ENOTFOUND.rawValue: .notFound
            case GIT_EUNBORNBRANCH.rawValue: .unbornHead
            default: .other(result)
            }
        self.init(
            code: code, pointOfFailure: pointOfFailure, message: message, path: path,
            errorClass: last?.pointee.klass ?? 0)
    }

    /// One line: what failed, libgit2's words, and what to do about it.
    public var description: String {
        let location = path ?? "?"
        let detail = "\(pointOfFailure): \(message)".replacingNewlines()
        switch code {
        case .notARepository:
            return "no git repository at or above \(location) (\(detail)); run inside a git working tree or create one with `git init`"
        case .dubiousOwnership:
            return message.replacingNewlines()
        case .unbornHead:
            return "repository at \(location) has no commits yet (\(detail)); make a first commit"
        case .notFound:
            return "not found in repository at \(location) (\(detail)); check the commit, reference or notes ref name"
        case .notesRefNotACommit(let ref):
            return "\(message.replacingNewlines()) in the repository at \(location), so no run can be read from its notes; "
                + "remove it with `git update-ref -d \(ref)` and fetch the notes again (git fetch origin 'refs/notes/*:refs/notes/*')"
        case .other(let result):
            return "libgit2 error \(result) in repository at \(location) (\(detail)); check the repository with `git status` or `git fsck`"
        }
    }
}

/// Throws a `GitError` when a libgit2 call returned a negative result.
func check(_ result: Int32, _ pointOfFailure: String, path: String?) throws {
    if result < 0 {
        throw GitError(result: result, pointOfFailure: pointOfFailure, path: path)
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
