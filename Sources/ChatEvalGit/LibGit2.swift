internal import CGit2
import Foundation

/// Process-wide libgit2 state: one-time initialisation and the lock that serialises ChatEvalGit's calls.
enum LibGit2 {
    /// `git_libgit2_init`'s result, evaluated once (lazily, thread-safely) per process.
    /// libgit2 is deliberately never shut down: its state lives as long as the process.
    private static let initResult: Int32 = {
        startSSHWithoutCrypto()
        return git_libgit2_init()
    }()

    /// Starts libssh2, when libgit2 was built with it, without initialising its crypto library
    /// (`libssh2_init(LIBSSH2_INIT_NO_CRYPTO)`), before `git_libgit2_init` starts it with: libssh2
    /// counts its starts and initialises crypto on the first only. On Debian that crypto is
    /// OpenSSL, whose initialisation made 1.4 MiB of libcrypto resident in every `chateval run`
    /// (README, "What the harness itself holds"), for an SSH transport ChatEval never uses: it
    /// reads local repositories and neither fetches nor pushes (no `git_remote` call anywhere).
    /// Code that adds fetching over SSH must start libssh2's crypto itself first. Looked up in
    /// the process rather than linked: libssh2 is libgit2's dependency, not ChatEval's, and
    /// absent where libgit2 was built without it (nothing is done then). Traced with gdb
    /// (2026-12-01): without this, `libssh2_init` called OpenSSL's `ENGINE_load_builtin_engines`
    /// from `git_libgit2_init`; with it, nothing did. No test holds it: OpenSSL's engine list is
    /// process-wide and libcurl's tests fill it too, and the effect is memory (`make bench`).
    private static func startSSHWithoutCrypto() {
        typealias SSHInit = @convention(c) (Int32) -> Int32
        let noCrypto: Int32 = 0x0001  // LIBSSH2_INIT_NO_CRYPTO, libssh2.h since 1.2.5
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "libssh2_init") else { return }
        _ = unsafeBitCast(symbol, to: SSHInit.self)(noCrypto)
    }

    /// Serialises all of ChatEvalGit's libgit2 work. libgit2 reads process-wide settings (owner
    /// validation, config search paths) while opening repositories, reading config and computing
    /// status; one lock around all of it lets those settings change without racing the readers.
    private static let lock = NSLock()

    /// Initialises libgit2 if this is the first call in the process.
    static func initialize() throws {
        try check(initResult, "git_libgit2_init", path: nil)
    }

    /// Runs `body` holding ChatEvalGit's libgit2 lock, with libgit2 initialised. Not reentrant.
    static func withLock<T>(_ body: () throws -> T) throws -> T {
        try initialize()
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` with libgit2's repository owner check switched off, then restores the previous
    /// setting. Only call it inside `withLock`: the setting is process-wide.
    static func withOwnerValidationDisabled<T>(_ body: () throws -> T) throws -> T {
        var previous: Int32 = 1
        try check(cgit2_get_owner_validation(&previous), "git_libgit2_opts(GIT_OPT_GET_OWNER_VALIDATION)", path: nil)
        try check(cgit2_set_owner_validation(0), "git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION)", path: nil)
        defer { cgit2_set_owner_validation(previous) }
        return try body()
    }

    /// Makes libgit2 look for the system (`gitconfig`), XDG (`config`) and global (`.gitconfig`)
    /// config files in `directory`, or restores the default locations when `nil`. Process-wide;
    /// for tests that need a config they control.
    static func setConfigSearchDirectory(_ directory: String?) throws {
        try withLock {
            for level in [GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL] {
                try check(
                    cgit2_set_config_search_path(level, directory),
                    "git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH)", path: directory)
            }
        }
    }
}

/// The libgit2 this process is linked with, as "1.5.1" (for `chateval --version`).
public var libgit2Version: String {
    var major: Int32 = 0, minor: Int32 = 0, revision: Int32 = 0
    guard git_libgit2_version(&major, &minor, &revision) == 0 else { return "unknown" }
    return "\(major).\(minor).\(revision)"
}
