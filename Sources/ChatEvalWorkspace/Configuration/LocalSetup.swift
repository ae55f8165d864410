import Foundation

/// What scripts/setup.sh leaves on this machine, and what the machine offers a run.
package enum LocalSetup {
    /// `$CHATEVAL_CACHE`, else `~/.cache/chateval` (where scripts/setup.sh puts llama.cpp and models).
    package static var cacheFolder: String {
        ProcessInfo.processInfo.environment["CHATEVAL_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.cache/chateval"
    }

    /// The default chat model that `make run` fetches into the cache.
    static var builtInModelPath: String { cacheFolder + "/models/SmolLM2-135M-Instruct.Q4_1.gguf" }

    /// Cores this process may use.
    package static var availableCores: Int { ProcessInfo.processInfo.activeProcessorCount }
}
