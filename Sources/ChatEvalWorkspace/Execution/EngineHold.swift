import ChatEvalLlama
import Synchronization

/// The in-process engines a command loaded, kept until the process ends: freeing one runs
/// llama.cpp, which can crash, and a crash there after the command finished used to end a
/// complete run with the signal's status (139), blamed on a turn after the last. Kept, they are
/// freed only when the next model of a run needs the memory, or a later job of the same process
/// loads its own (`releaseAll`, named to the crash handler first), and never at exit, where the
/// process gives the memory back at once; a crash at exit all the same (the libraries' destructors) keeps the command's own exit status
/// (`EngineCrashReport.setCommandFinished`, which the entry point calls before it exits).
package enum EngineHold {
    private static let held = Mutex<[LlamaChatRuntime]>([])

    /// Keeps `engine` alive until `releaseAll()`, or the process ends.
    static func keep(_ engine: LlamaChatRuntime) {
        held.withLock { $0.append(engine) }
    }

    /// Stops keeping `engine`: freed once its last other owner lets go (a bisection's least
    /// recently used configuration, whose memory the next one needs).
    static func release(_ engine: LlamaChatRuntime) {
        held.withLock { $0.removeAll { $0 === engine } }
    }

    /// Frees the engines kept so far (before the next model of a run loads); `finished` names
    /// what the crash handler says was finished, should freeing one crash.
    static func releaseAll(after finished: [String]) {
        let engines = held.withLock { held -> [LlamaChatRuntime] in
            defer { held = [] }
            return held
        }
        guard !engines.isEmpty else { return }
        if !finished.isEmpty { EngineCrashReport.setRunFinished(results: finished) }
        withExtendedLifetime(engines) {}
    }
}
