import ChatEvalCore
import ChatEvalStore

/// What differs between how the base and the head runs were measured.
///
/// Differences of the environment (machine, engine build) always make timings incomparable.
/// Differences of configuration (model, chat template, context, threads, ...) are the commit's
/// own change — and the point of comparing — when both sides took the value from their commit's
/// project file; otherwise someone ran the two sides differently, and that is a mismatch too.
enum SettingDifferences {
    static func between(base: [RunRecord], head: [RunRecord]) -> [SettingDifference] {
        guard let b = base.max(by: { $0.startedAt < $1.startedAt }), let h = head.max(by: { $0.startedAt < $1.startedAt }) else {
            return []
        }
        var differences: [SettingDifference] = []
        func compare(_ field: String, _ baseValue: String, _ headValue: String, setting: String?) {
            guard baseValue != headValue else { return }
            let committed = setting.map { b.settings.sources?[$0] == .projectFile && h.settings.sources?[$0] == .projectFile } ?? false
            differences.append(SettingDifference(field: field, base: baseValue, head: headValue, isCommitDetermined: committed))
        }
        compare("machine", machine(b.machine), machine(h.machine), setting: nil)
        compare("engine build", "\(b.runtime.engine) \(b.runtime.build)", "\(h.runtime.engine) \(h.runtime.build)", setting: nil)
        compare("model sha256", b.modelSha256 ?? "unknown", h.modelSha256 ?? "unknown", setting: "model")
        compare("chat template", template(b.runtime), template(h.runtime), setting: "chat_template")
        compare("context size", String(b.runtime.contextSize), String(h.runtime.contextSize), setting: "context_size")
        compare("batch size", String(b.runtime.batchSize), String(h.runtime.batchSize), setting: "batch_size")
        compare("threads", String(b.runtime.threads), String(h.runtime.threads), setting: "threads")
        if b.runtime.slidingWindow != nil || h.runtime.slidingWindow != nil {
            compare(
                "sliding-window cache", (b.runtime.slidingWindowCache ?? .full).rawValue, (h.runtime.slidingWindowCache ?? .full).rawValue,
                setting: "sliding_window_cache")
        }
        compare("cache mode", b.settings.cacheMode.rawValue, h.settings.cacheMode.rawValue, setting: "cache_mode")
        return differences
    }

    /// The machine as far as speed goes: processor, cores, architecture (not its name: CI
    /// runners of one kind differ only in name).
    static func machine(_ machine: MachineInfo) -> String {
        machine.performanceClass
    }

    static func template(_ runtime: RuntimeIdentity) -> String {
        "\(runtime.chatTemplate) (\(runtime.chatTemplateHash.map { String($0.prefix(12)) } ?? "no hash"))"
    }
}
