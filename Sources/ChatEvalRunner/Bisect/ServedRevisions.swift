import ChatEvalCompare
import ChatEvalRuntime
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Each bisected commit's own runtime, built and served from the repository: the commit is
/// exported into a scratch folder, `build` run there (`/bin/sh -c`; a failure skips the commit,
/// as `git bisect skip` does), then `serve` started there with `PORT` set to a free port, and the
/// runtime connected once the server answers. Logs go beside the scratch folder
/// (`<commit>.build.log`, `<commit>.serve.log`), each bounded (`BoundedLog`). A server is
/// stopped (its whole process group) when its state is released; the commits' trees are removed
/// by `removeTrees()` once the bisection is over (`BisectScratch` removes those of one killed).
public actor ServedRevisions: RevisionRuntimes {
    /// A connected runtime and how to close it.
    public struct Endpoint: Sendable {
        public var runtime: any ChatRuntime
        public var close: @Sendable () async -> Void

        public init(runtime: any ChatRuntime, close: @escaping @Sendable () async -> Void) {
            self.runtime = runtime
            self.close = close
        }
    }

    private let commits: [(id: String, shortId: String)]
    private let export: @Sendable (_ commit: String, _ folder: URL) throws -> Void
    private let build: String?
    private let serve: String
    private let scratch: URL
    private let connect: @Sendable (_ baseURL: String) async throws -> Endpoint
    private let readyTimeout: Double
    /// The scratch folder's claim, held as long as these revisions are.
    private let holding: BisectScratch?
    private var built: Set<Int> = []
    private var failed: [Int: BisectSkip] = [:]
    private var running: [Int: (process: pid_t, endpoint: Endpoint)] = [:]

    /// - `commits`: by state index.
    /// - `export`: writes a commit's tree into a folder (libgit2, the working tree untouched).
    /// - `connect`: the runtime at a base URL ("http://127.0.0.1:PORT/v1"); throws until the server answers.
    public init(
        commits: [(id: String, shortId: String)], export: @escaping @Sendable (String, URL) throws -> Void, build: String?, serve: String,
        scratch: URL, holding: BisectScratch? = nil, readyTimeout: Double = 180,
        connect: @escaping @Sendable (String) async throws -> Endpoint
    ) {
        self.holding = holding
        self.commits = commits
        self.export = export
        self.build = build
        self.serve = serve
        self.scratch = scratch
        self.readyTimeout = readyTimeout
        self.connect = connect
    }

    public func runtime(for index: Int) async throws -> any ChatRuntime {
        if let running = running[index] { return running.endpoint.runtime }
        if let skip = failed[index] { throw skip }
        let folder = scratch.appendingPathComponent(commits[index].shortId)
        if !built.contains(index) {
            do {
                try export(commits[index].id, folder)
            } catch {
                throw skip(index, "its tree could not be written to \(folder.path): \(error)")
            }
            if let build {
                let log = scratch.appendingPathComponent("\(commits[index].shortId).build.log")
                let (status, output) = try Self.spawn(build, in: folder, log: log, environment: [:])
                let exit = await Self.wait(status)
                output.waitUntilComplete(timeout: 2)
                guard exit == 0 else { throw skip(index, "the build failed (exit \(exit); \(log.path))", lasting: true) }
            }
            built.insert(index)
        }
        let port = Self.freePort()
        let log = scratch.appendingPathComponent("\(commits[index].shortId).serve.log")
        let (process, _) = try Self.spawn(serve, in: folder, log: log, environment: ["PORT": String(port)])
        let started = Date()
        while true {
            if let endpoint = try? await connect("http://127.0.0.1:\(port)/v1") {
                running[index] = (process, endpoint)
                return endpoint.runtime
            }
            var status: Int32 = 0
            if waitpid(process, &status, WNOHANG) == process {
                throw skip(index, "the server exited before it answered (\(log.path))")
            }
            if Date().timeIntervalSince(started) > readyTimeout {
                Self.stop(process)
                throw skip(index, "the server did not answer within \(Int(readyTimeout)) s (\(log.path))")
            }
            try await Task.sleep(nanoseconds: 500_000_000)
        }
    }

    public func release(_ index: Int) async {
        guard let (process, endpoint) = running.removeValue(forKey: index) else { return }
        await endpoint.close()
        Self.stop(process)
    }

    /// Stops every server still running.
    public func releaseAll() async {
        for index in running.keys { await release(index) }
    }

    /// Removes the commits' trees (their logs stay): once the bisection is over, with every
    /// server stopped. A commit needed again is exported and built again.
    public func removeTrees() async {
        await releaseAll()
        // Every commit's: a tree whose build failed was written too.
        for commit in commits { try? FileManager.default.removeItem(at: scratch.appendingPathComponent(commit.shortId)) }
        built = []
    }

    private func skip(_ index: Int, _ reason: String, lasting: Bool = false) -> BisectSkip {
        let skip = BisectSkip(state: index, reason: reason, isLasting: lasting)
        failed[index] = skip
        return skip
    }

    /// `/bin/sh -c command` in `folder`, in a process group of its own, both streams to `log`
    /// (bounded: `BoundedLog`).
    static func spawn(_ command: String, in folder: URL, log: URL, environment: [String: String]) throws -> (pid_t, BoundedLog) {
        let output = try BoundedLog(log)
        defer { output.closeChildEnd() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output.childEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, output.childEnd, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.map { "\($0.key)=\($0.value)" }
        // Into the folder first (posix_spawn_file_actions_addchdir_np is not visible to Swift here).
        let quoted = "'" + folder.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let arguments = ["/bin/sh", "-c", "cd \(quoted) && \(command)"]
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = variables.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, &cEnvironment)
        guard result == 0 else {
            throw ServedRevisionError(message: "cannot start /bin/sh -c \(command): \(String(cString: strerror(result)))")
        }
        return (pid, output)
    }

    /// The exit status of `pid` once it ends (polled: the actor stays free meanwhile).
    static func wait(_ pid: pid_t) async -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 { try? await Task.sleep(nanoseconds: 100_000_000) }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// SIGTERM to the whole process group, SIGKILL if it is still there after 5 s, then reaped.
    static func stop(_ pid: pid_t) {
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(100_000)
        }
        kill(-pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    /// A TCP port nobody listens on now (bound once to port 0, then released).
    static func freePort() -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
