import ChatEvalCompare
import ChatEvalCore
import ChatEvalRuntime
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Each bisected commit's own runtime, built and served from the repository: the commit is
/// exported into a scratch folder, `build` run there (`/bin/sh -c`; a failure skips the commit,
/// as `git bisect skip` does), then `serve` started there with `PORT` set to a free port, and the
/// runtime connected once the server answers. Each command runs in a process group of its own
/// (`ProcessGroup`), bounded in time (`buildTimeout`, `readyTimeout`: a commit that passes
/// either is skipped, its group killed), and never outlives ChatEval. Logs go beside the scratch folder
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

    /// How long a build may take (`--build-timeout`), and a server to answer (`--serve-ready-timeout`).
    public static let defaultBuildTimeout = 30.0 * 60
    public static let defaultReadyTimeout = 120.0

    private let commits: [(id: String, shortId: String)]
    private let export: @Sendable (_ commit: String, _ folder: URL) throws -> Void
    private let build: String?
    private let serve: String
    private let scratch: URL
    private let connect: @Sendable (_ baseURL: String) async throws -> Endpoint
    private let readyTimeout: Double
    private let buildTimeout: Double
    /// The scratch folder's claim, held as long as these revisions are.
    private let holding: BisectScratch?
    private var built: Set<Int> = []
    private var failed: [Int: BisectSkip] = [:]
    private var running: [Int: (server: ProcessGroup, endpoint: Endpoint)] = [:]

    /// - `commits`: by state index.
    /// - `export`: writes a commit's tree into a folder (libgit2, the working tree untouched).
    /// - `connect`: the runtime at a base URL ("http://127.0.0.1:PORT/v1"); throws until the server answers.
    public init(
        commits: [(id: String, shortId: String)], export: @escaping @Sendable (String, URL) throws -> Void, build: String?, serve: String,
        scratch: URL, holding: BisectScratch? = nil, buildTimeout: Double = ServedRevisions.defaultBuildTimeout,
        readyTimeout: Double = ServedRevisions.defaultReadyTimeout, connect: @escaping @Sendable (String) async throws -> Endpoint
    ) {
        self.holding = holding
        self.commits = commits
        self.export = export
        self.build = build
        self.serve = serve
        self.scratch = scratch
        self.readyTimeout = readyTimeout
        self.buildTimeout = buildTimeout
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
            if let build { try await runBuild(build, index: index, in: folder) }
            built.insert(index)
        }
        let port = Self.freePort()
        let log = scratch.appendingPathComponent("\(commits[index].shortId).serve.log")
        let server = try ProcessGroup.start(serve, in: folder, log: log, environment: ["PORT": String(port)])
        let started = Date()
        while true {
            let left = max(readyTimeout - Date().timeIntervalSince(started), 0.1)
            let connect = self.connect
            if let endpoint = await Self.within(left, { try await connect("http://127.0.0.1:\(port)/v1") }) {
                running[index] = (server, endpoint)
                return endpoint.runtime
            }
            switch server.ending() {
            case .ended?: throw BisectInterruption()
            case .exited(let status)?:
                await server.endInBackground()
                throw skip(index, "the server exited (status \(status)) before it answered (\(log.path))")
            case nil: break
            }
            if Task.isCancelled {
                await server.endInBackground()
                throw BisectInterruption()
            }
            if Date().timeIntervalSince(started) >= readyTimeout {
                await server.endInBackground()
                throw skip(
                    index,
                    "the server did not become ready in \(DurationText.format(readyTimeout)) (--serve-ready-timeout); "
                        + "its process group was killed (\(log.path))")
            }
            try? await Task.sleep(nanoseconds: 500_000_000)
        }
    }

    /// Runs `command` in `folder` to its end, within `buildTimeout`; what it left running in
    /// its process group is ended either way. A failure skips the commit for good (its journal
    /// says so), a timeout for this bisection (a quieter machine may build it in time).
    private func runBuild(_ command: String, index: Int, in folder: URL) async throws {
        let log = scratch.appendingPathComponent("\(commits[index].shortId).build.log")
        let group = try ProcessGroup.start(command, in: folder, log: log, environment: [:])
        let ending = await group.wait(timeout: buildTimeout)
        await group.endInBackground()
        switch ending {
        case nil:
            throw skip(
                index,
                "the build did not finish in \(DurationText.format(buildTimeout)) (--build-timeout); its process group was killed "
                    + "(\(log.path))")
        case .ended?: throw BisectInterruption()
        case .exited(let status)?:
            guard status == 0 else { throw skip(index, "the build failed (exit \(status); \(log.path))", lasting: true) }
        }
    }

    /// What `body` returns, or nil when it throws or has not returned within `seconds` (it is
    /// then cancelled and left to end on its own: a server that accepts but never answers does
    /// not hold the readiness wait past its bound).
    static func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async -> T? {
        let finished = Finished()
        let task = Task<T?, Never> {
            defer { finished.flag.store(true, ordering: .releasing) }
            return try? await body()
        }
        let deadline = Date().addingTimeInterval(seconds)
        while !finished.flag.load(ordering: .acquiring), Date() < deadline { try? await Task.sleep(nanoseconds: 50_000_000) }
        guard finished.flag.load(ordering: .acquiring) else {
            task.cancel()
            return nil
        }
        return await task.value
    }

    private final class Finished: Sendable { let flag = Atomic<Bool>(false) }

    public func release(_ index: Int) async {
        guard let (server, endpoint) = running.removeValue(forKey: index) else { return }
        await endpoint.close()
        await server.endInBackground()
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
