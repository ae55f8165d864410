internal import CEngineCrash
import ChatEvalCore
import Foundation

/// What a fatal signal inside llama.cpp prints instead of a backtrace: the engine, the signal,
/// what the run was doing and where its finished turns are kept (the handler is C, in
/// `CEngineCrash`: it may only do async-signal-safe work). The process then ends by the same
/// signal, status 128 + signal (132 for SIGILL, 139 for SIGSEGV, 134 for SIGABRT).
/// `CHATEVAL_ENGINE_BACKTRACE=1` hands the signal on to Swift's backtracer after the message.
public enum EngineCrashReport {
    /// Installs the handler (once, with the engine's description); done before the first model loads.
    static func install() {
        let environment = ProcessInfo.processInfo.environment
        let chain = !(environment["CHATEVAL_ENGINE_BACKTRACE"] ?? "").isEmpty && environment["CHATEVAL_ENGINE_BACKTRACE"] != "0"
        chateval_crash_install(engineDescription(), "libllama.so:libggml:libgomp", chain ? 1 : 0)
    }

    /// The lines the message names the engine with: its build and this CPU.
    static func engineDescription(build: EngineBuild? = EngineBuild.loaded, cpu: CPUDescription? = CPUDescription.current) -> String {
        var lines: [String] = []
        if let build {
            lines.append("  engine      \(safe(build.summary))")
            lines.append("  built for   \(safe(build.builtOn)) (engine \(safe(build.fields["engine_key"] ?? "?")), \(safe(build.library)))")
        } else {
            lines.append("  engine      llama.cpp \(llamaLibraryVersion), not built by ChatEval's set-up (no build record)")
        }
        lines.append("  this CPU    \(safe(cpu?.model ?? "unknown"))")
        return lines.map { $0 + "\n" }.joined()
    }

    /// What the run is doing, named in the message: "suite smoke, conversation greet, turn 2 (repetition 1)".
    public static func setActivity(_ activity: String) {
        chateval_crash_set_activity(safe(activity))
    }

    /// Where the finished turns are kept: the journals, and the command that turns them into results.
    public static func setRecovery(journals: [String], reportsFolder: String?) {
        guard !journals.isEmpty else {
            chateval_crash_set_recovery("")
            return
        }
        let next = reportsFolder.map { " (the next run into \($0) does it too)" } ?? ""
        chateval_crash_set_recovery(
            safe(
                "every finished turn is in \(journals.joined(separator: " and ")): "
                    + "`chateval recover \(journals.joined(separator: " "))` writes the result\(next)"))
    }

    /// The run is over and its results are written: a crash from here on (freeing the engine,
    /// closing down) is named as such, not as the turn after the last one, and points at the
    /// results rather than the journals.
    public static func setRunFinished(results: [String]) {
        chateval_crash_set_activity("closing down after the run: every turn had finished, none was in progress")
        chateval_crash_set_recovery(
            safe("nothing is lost: every finished turn is in \(results.joined(separator: " and ")) (`chateval report` shows it)"))
    }

    /// The command has finished and earned `status`: an engine crash from now on ends the process
    /// with that status, after its message, instead of the signal's (the command's results and
    /// verdict stand).
    public static func setCommandFinished(status: Int32) {
        chateval_crash_set_finished(status)
    }

    /// `text` with every control character (C0, DEL, C1) and bidirectional override shown as an
    /// escape rather than obeyed, as `Terminal.safe` shows them: suite and conversation ids and the
    /// engine record's fields come from files, and the handler writes them to the terminal as they are.
    static func safe(_ text: String) -> String { ControlCharacters.escaped(text) }

    /// Runs `body` (llama.cpp calls) marked as an engine call: a fatal signal on this thread is the engine's.
    @inline(__always)
    static func engineCall<T>(_ body: () -> T) -> T {
        chateval_crash_engine_enter()
        defer { chateval_crash_engine_leave() }
        return body()
    }
}
