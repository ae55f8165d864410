internal import CGit2
import Foundation

/// An open git repository, read and annotated through libgit2.
///
/// Owns its `git_repository*` and frees it on deinit. Not `Sendable`: keep each instance in one
/// task. (Calls into libgit2 are additionally serialised process-wide, see `LibGit2.withLock`.)
public final class GitRepository {
    let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        git_repository_free(pointer)
    }

    /// Opens the repository containing `directory`, searching upward through its parents like
    /// `git` does. Throws `GitError` with `.notARepository` if there is none, or
    /// `.dubiousOwnership` if it belongs to another user and `safe.directory` does not trust it.
    public static func discover(startingAt directory: URL) throws -> GitRepository {
        GitRepository(owning: try openRepository(at: directory.path, searchUpward: true))
    }

    /// Opens the repository whose working tree or git directory is exactly `path`, without
    /// searching parents. Throws like `discover(startingAt:)`.
    public convenience init(path: URL) throws {
        self.init(owning: try Self.openRepository(at: path.path, searchUpward: false))
    }

    /// The working tree directory, without a trailing slash; nil for a bare repository.
    public var workdir: String? { Self.workdirPath(of: pointer) }

    /// The git directory (usually `<workdir>/.git`), without a trailing slash.
    public var gitDirectory: String { Self.gitDirectoryPath(of: pointer) }

    /// The path git's ownership rules and error messages use: working tree, else git directory.
    var displayPath: String { workdir ?? gitDirectory }

    /// Throws a `GitError` about this repository when a libgit2 call returned a negative result.
    func check(_ result: Int32, _ pointOfFailure: String) throws {
        try ChatEvalGit.check(result, pointOfFailure, path: displayPath)
    }

    // MARK: - Opening and ownership

    /// Opens a repository, applying git's `safe.directory` rules when libgit2 1.5.1 refuses a
    /// repository owned by another user (it reports that with a misleading "config value
    /// 'safe.directory' was not found", and does not understand `safe.directory=*`).
    private static func openRepository(at path: String, searchUpward: Bool) throws -> OpaquePointer {
        let flags = searchUpward ? 0 : GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue
        return try LibGit2.withLock {
            var repository: OpaquePointer?
            let result = git_repository_open_ext(&repository, path, flags, nil)
            if result == 0, let repository { return repository }

            let failure = GitError(result: result, pointOfFailure: "git_repository_open_ext", path: path)
            if isOwnershipRefusal(failure) {
                return try openOwnedByAnotherUser(at: path, flags: flags, refusal: failure)
            }
            guard failure.code == .notFound else { throw failure }
            throw GitError(
                code: .notARepository, pointOfFailure: failure.pointOfFailure,
                message: failure.message, path: path, errorClass: failure.errorClass)
        }
    }

    /// libgit2 1.5.1 reports a foreign owner as GIT_EOWNER, or as GIT_ENOTFOUND from the config
    /// class (while "no repository here" is GIT_ENOTFOUND from the repository class).
    private static func isOwnershipRefusal(_ error: GitError) -> Bool {
        error.code == .other(GIT_EOWNER.rawValue)
            || (error.code == .notFound && error.errorClass == Int32(GIT_ERROR_CONFIG.rawValue))
    }

    /// Reopens with owner validation off to find the repository, then decides by git's rules.
    /// Throws `refusal` unchanged if the repository turns out not to be foreign-owned after all.
    private static func openOwnedByAnotherUser(
        at path: String, flags: UInt32, refusal: GitError
    ) throws -> OpaquePointer {
        var candidate: OpaquePointer?
        let result = try LibGit2.withOwnerValidationDisabled {
            git_repository_open_ext(&candidate, path, flags, nil)
        }
        guard result == 0, let candidate else { throw refusal }
        do {
            try requireTrustedOwnership(of: candidate, refusal: refusal)
            return candidate
        } catch {
            git_repository_free(candidate)
            throw error
        }
    }

    /// Throws `.dubiousOwnership` unless `safe.directory` trusts the foreign-owned `repository`.
    private static func requireTrustedOwnership(of repository: OpaquePointer, refusal: GitError) throws {
        let workdir = workdirPath(of: repository)
        let gitDirectory = gitDirectoryPath(of: repository)
        let currentUserID = geteuid()
        let checkedPaths = [workdir, gitDirectory].compactMap { $0 }
        guard
            let foreignOwnerID = checkedPaths.lazy.compactMap(ownerUserID(of:))
                .first(where: { $0 != currentUserID })
        else { throw refusal }

        let repositoryPath = workdir ?? gitDirectory
        guard !SafeDirectory.trusts(repositoryPath, values: try SafeDirectory.configuredValues()) else { return }
        throw GitError(
            code: .dubiousOwnership, pointOfFailure: refusal.pointOfFailure,
            message: "repository at \(repositoryPath) is owned by uid \(foreignOwnerID), not by you "
                + "(uid \(currentUserID)); if you trust it run: "
                + "git config --global --add safe.directory \(repositoryPath)",
            path: repositoryPath, errorClass: refusal.errorClass)
    }

    private static func workdirPath(of repository: OpaquePointer) -> String? {
        git_repository_workdir(repository).map { String(cString: $0).withoutTrailingSlashes }
    }

    private static func gitDirectoryPath(of repository: OpaquePointer) -> String {
        String(cString: git_repository_path(repository)).withoutTrailingSlashes
    }
}
