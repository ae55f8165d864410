internal import CEngineCrash
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
            lines.append("  engine      \(build.summary)")
            lines.append("  built for   \(build.builtOn) (engine \(build.fields["engine_key"] ?? "?"), \(build.library))")
        } else {
            lines.append("  engine      llama.cpp \(llamaLibraryVersion), not built by ChatEval's set-up (no build record)")
        }
        lines.append("  this CPU    \(cpu?.model ?? "unknown")")
        return lines.map { $0 + "\n" }.joined()
    }

    /// What the run is doing, named in the message: "suite smoke, conversation greet, turn 2 (repetition 1)".
    public static func setActivity(_ activity: String) {
        chateval_crash_set_activity(activity)
    }

    /// Where the finished turns are kept: the journals, and the command that turns them into results.
    public static func setRecovery(journals: [String], reportsFolder: String?) {
        guard !journals.isEmpty else {
            chateval_crash_set_recovery("")
            return
        }
        let next = reportsFolder.map { " (the next run into \($0) does it too)" } ?? ""
        chateval_crash_set_recovery(
            "every finished turn is in \(journals.joined(separator: " and ")): "
                + "`chateval recover \(journals.joined(separator: " "))` writes the result\(next)")
    }

    /// Runs `body` (llama.cpp calls) marked as an engine call: a fatal signal on this thread is the engine's.
    @inline(__always)
    static func engineCall<T>(_ body: () -> T) -> T {
        chateval_crash_engine_enter()
        defer { chateval_crash_engine_leave() }
        return body()
    }
}
