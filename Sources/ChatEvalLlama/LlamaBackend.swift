internal import CLlama

/// Process-wide llama.cpp initialisation, done once before the first model is loaded.
enum LlamaBackend {
    private static let initialised: Void = {
        EngineCrashReport.install()
        LlamaLog.install()
        llama_backend_init()
    }()

    static func ensureInitialised() { _ = initialised }

    /// Refuses an engine built for instructions this CPU lacks (set-up's build record against
    /// /proc/cpuinfo), before it can die with SIGILL; an engine without a record is not judged.
    static func checkEngineRunsHere(
        build: EngineBuild? = EngineBuild.loaded, cpu: CPUDescription? = CPUDescription.current,
        recordProblem: String? = EngineBuild.loadedRecordProblem
    ) throws(LlamaError) {
        // A record that cannot be trusted cannot say the engine runs here: refused, not passed over.
        if let recordProblem { throw LlamaError(.engineRecordUnreadable, recordProblem) }
        guard let build, let cpu else { return }
        let missing = build.missingInstructions(on: cpu)
        guard !missing.isEmpty else { return }
        throw LlamaError(
            .engineBuiltForAnotherCPU,
            "the llama.cpp engine at \(build.library) was built for \(build.builtOn), with instructions this CPU "
                + "(\(cpu.model)) lacks: \(missing.joined(separator: " ")); it would crash (SIGILL) at the first prompt. "
                + "Build it for this machine: make setup (or bash scripts/setup.sh llama), then rebuild chateval (make build)")
    }

    /// Names of the chat templates llama.cpp knows (`gemma`, `chatml`, `llama3`, ...).
    static func builtinChatTemplates() -> [String] {
        ensureInitialised()
        let count = Int(llama_chat_builtin_templates(nil, 0))
        guard count > 0 else { return [] }
        var names = [UnsafePointer<CChar>?](repeating: nil, count: count)
        let written = Int(llama_chat_builtin_templates(&names, names.count))
        return names.prefix(written).compactMap { $0.map { String(cString: $0) } }
    }
}

/// The ggml library llama.cpp runs on, as "ggml 0.26.0" (for `chateval --version`); the llama.cpp
/// build itself has no version call, so set-up names it in CHATEVAL_LLAMA_BUILD.
public var llamaLibraryVersion: String {
    "ggml \(String(cString: ggml_version()))"
}
