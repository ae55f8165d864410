import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A command a bisection runs (`--build`, `--serve`): `/bin/sh -c` in a process group of its own,
/// which never outlives ChatEval. The group is ended — SIGTERM to the whole group, SIGKILL after
/// `grace` seconds — by `end()`: when the command is done with (a build that finished leaves no
/// daemon behind), on a timeout, on SIGINT or SIGTERM (`endAll`), and when ChatEval exits.
///
/// Against ChatEval's own death (SIGKILL, a crash), a supervising pipe: its write end is held by
/// ChatEval alone (close-on-exec, so no other child inherits it); the group's first process
/// starts a watcher holding the read end, which ignores SIGTERM and blocks reading. When ChatEval
/// dies, however it dies, the kernel closes the write end; the watcher reads end-of-file and ends
/// its own process group (TERM; KILL once the first process is gone or after `grace`),
/// grandchildren included. Chosen over Linux's
/// parent-death signal (prctl PR_SET_PDEATHSIG) because that signal follows the *thread* that
/// forked, not the process — Swift's concurrency threads come and go — reaches only the one
/// process that set it, not the group, and needs code run between fork and exec, which
/// posix_spawn does not offer. The pipe needs nothing but `/bin/sh`, and a watcher that is
/// itself killed first (`kill -KILL 0` by the command) leaves nothing to clean up.
public final class ProcessGroup: Sendable {
    /// How the command ended.
    public enum Ending: Sendable, Equatable {
        /// It exited by itself with this status (128 + n when killed by signal n).
        case exited(Int32)
        /// ChatEval ended its group (`end()`): a timeout, an interruption.
        case ended
    }

    /// Seconds between SIGTERM and SIGKILL.
    public static let grace = 5.0

    /// The group's first process (`/bin/sh`), whose pid is the group's id.
    public let leader: pid_t
    /// Its standard output and error (bounded).
    let log: BoundedLog
    private let state: Mutex<State>

    private struct State {
        var exit: Int32?
        var ended = false
        var killed = false
        /// ChatEval's end of the supervising pipe; -1 once closed.
        var supervisor: Int32
    }

    /// Every group started and not yet ended, by leader.
    private static let live = Mutex<[pid_t: ProcessGroup]>([:])

    private init(leader: pid_t, log: BoundedLog, supervisor: Int32) {
        self.leader = leader
        self.log = log
        state = Mutex(State(supervisor: supervisor))
    }

    /// Starts `/bin/sh -c command` in `folder`, in a new process group, standard input from
    /// /dev/null, both output streams to `log` (bounded), `environment` added to ChatEval's own.
    public static func start(_ command: String, in folder: URL, log url: URL, environment: [String: String]) throws
        -> ProcessGroup
    {
        let log = try BoundedLog(url)
        defer { log.closeChildEnd() }
        var ends: [Int32] = [0, 0]
        // Both ends close-on-exec from the start: no other child ever inherits them.
        guard systemPipe2(&ends, O_CLOEXEC) == 0 else {
            throw ServedRevisionError(message: "cannot open a pipe to supervise \(command): \(String(cString: strerror(errno)))")
        }
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log.childEnd, 1)
        posix_spawn_file_actions_adddup2(&actions, log.childEnd, 2)
        posix_spawn_file_actions_adddup2(&actions, ends[0], 3)  // the watcher's end (dup2 clears close-on-exec)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals as a shell's child expects them: ChatEval ignores SIGINT and SIGTERM while it
        // traps them, and its dispatch sources block them (signalfd) — both would be inherited,
        // and a server ignoring SIGTERM is only ended by SIGKILL after the grace.
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        var noSignal = sigset_t()
        sigemptyset(&noSignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setsigmask(&attributes, &noSignal)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.map { "\($0.key)=\($0.value)" }
        let arguments: [String] = ["/bin/sh", "-c", script(command, in: folder)]
        var cArguments = arguments.map { strdup($0) } + [nil]
        var cEnvironment = variables.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &cArguments, &cEnvironment)
        guard result == 0 else {
            close(ends[1])
            throw ServedRevisionError(message: "cannot start /bin/sh -c \(command): \(String(cString: strerror(result)))")
        }
        let group = ProcessGroup(leader: pid, log: log, supervisor: ends[1])
        live.withLock { $0[pid] = group }
        return group
    }

    /// The shell script the group's first process runs: the watcher (in the background, its
    /// output nowhere, SIGTERM ignored) blocks on the supervising pipe (fd 3) and ends the group
    /// when it reads end-of-file; the shell then closes fd 3 (the command does not hold it),
    /// enters `folder` and runs `command`.
    static func script(_ command: String, in folder: URL) -> String {
        let quoted = "'" + folder.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        // The watcher waits for the first process ($$ in a subshell) to go, in tenths of a second,
        // at most the grace, then kills what is left of the group, itself included.
        let tenths = Int(Self.grace * 10)
        return """
            { trap '' TERM; read -r line <&3; kill -TERM 0; i=0; while [ $i -lt \(tenths) ] && kill -0 $$ 2>/dev/null; do \
            sleep 0.1; i=$((i+1)); done; kill -KILL 0; } </dev/null >/dev/null 2>&1 &
            exec 3<&-
            cd \(quoted) || exit 126
            \(command)
            """
    }

    /// How the command ended, or nil while it runs (never blocks).
    public func ending() -> Ending? {
        state.withLock { state in
            reap(&state, blocking: false)
            guard let exit = state.exit else { return nil }
            return state.ended ? .ended : .exited(exit)
        }
    }

    /// Waits (polling: the caller's actor stays free) until the command ends or `timeout`
    /// seconds pass; nil on the timeout.
    public func wait(timeout: Double) async -> Ending? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let ending = ending() { return ending }
            if Date() >= deadline { return nil }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
    }

    /// Ends the group (see `endAll`).
    public func end(grace: Double = ProcessGroup.grace) { Self.endAll([self], grace: grace) }

    /// `end()` on a thread of its own: the caller's (an actor's, on the shared pool) is not held
    /// for the grace.
    public func endInBackground() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.end()
                done.resume()
            }
        }
    }

    /// Ends every group ChatEval started and has not ended yet (SIGINT, SIGTERM, an exit).
    public static func endAll(grace: Double = ProcessGroup.grace) { endAll(live.withLock { Array($0.values) }, grace: grace) }

    /// Ends `groups` together: SIGTERM to each whole group; then, once each first process has
    /// exited and its log is closed (what else ran in the group held it) or `grace` seconds
    /// passed, SIGKILL to each group (the watcher with it), each first process reaped, and the
    /// supervising pipe closed. Safe to call from any thread, more than once.
    public static func endAll(_ groups: [ProcessGroup], grace: Double) {
        let groups = groups.filter { group in group.state.withLock { !$0.killed } }
        for group in groups {
            group.state.withLock { state in
                if state.exit == nil { state.ended = true }
            }
            kill(-group.leader, SIGTERM)
        }
        let deadline = Date().addingTimeInterval(grace)
        for group in groups {
            while group.ending() == nil || !group.log.waitUntilComplete(timeout: 0), Date() < deadline { usleep(50_000) }
        }
        for group in groups {
            group.state.withLock { state in
                guard !state.killed else { return }
                state.killed = true
                // The watcher is still in the group, so its id is not yet anyone else's.
                kill(-group.leader, SIGKILL)
                group.reap(&state, blocking: true)
                if state.supervisor >= 0 { close(state.supervisor) }
                state.supervisor = -1
            }
            live.withLock { _ = $0.removeValue(forKey: group.leader) }
        }
    }

    private func reap(_ state: inout State, blocking: Bool) {
        guard state.exit == nil else { return }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(leader, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == leader else { return }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
        state.exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

/// glibc's pipe2, which Swift's Glibc module does not show (it is declared under _GNU_SOURCE):
/// a pipe whose ends are close-on-exec from the start, with no moment when a child spawned by
/// another thread could inherit them.
@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
