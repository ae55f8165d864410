internal import CGit2
import Foundation

/// git's `safe.directory` rule for repositories owned by another user (git 2.39 semantics).
///
/// Values are applied in config order (system, then XDG, then global): `*` trusts every
/// repository, a path trusts the repository whose working tree (or, if bare, git directory)
/// is exactly that path, ignoring trailing slashes, and an empty value forgets the entries
/// before it. Paths are compared literally: no `~` expansion, no symlink resolution.
/// The repository's own config is never consulted, as in git.
enum SafeDirectory {
    /// Whether `values` (in config order) trust the repository at `repositoryPath`.
    static func trusts(_ repositoryPath: String, values: [String]) -> Bool {
        let target = repositoryPath.withoutTrailingSlashes
        var trusted = false
        for value in values {
            if value.isEmpty {
                trusted = false
            } else if value == "*" || value.withoutTrailingSlashes == target {
                trusted = true
            }
        }
        return trusted
    }

    /// Every `safe.directory` value in the system, XDG and global git config, lowest level first.
    static func configuredValues() throws -> [String] {
        var config: OpaquePointer?
        try check(git_config_open_default(&config), "git_config_open_default", path: nil)
        defer { git_config_free(config) }

        var iterator: OpaquePointer?
        try check(
            git_config_multivar_iterator_new(&iterator, config, "safe.directory", nil),
            "git_config_multivar_iterator_new", path: nil)
        defer { git_config_iterator_free(iterator) }

        var values: [String] = []
        var entry: UnsafeMutablePointer<git_config_entry>?
        while true {
            let result = git_config_next(&entry, iterator)
            if result == GIT_ITEROVER.rawValue { return values }
            try check(result, "git_config_next", path: nil)
            if let value = entry?.pointee.value {
                values.append(String(cString: value))
            }
        }
    }
}

/// The owner of a file system path, as a numeric user id, or nil if it cannot be read.
func ownerUserID(of path: String) -> uid_t? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_uid : nil
}

extension String {
    var withoutTrailingSlashes: String {
        var trimmed = Substring(self)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }
}
