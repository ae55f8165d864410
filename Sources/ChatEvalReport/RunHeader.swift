import ChatEvalCore

/// The lines that open a run: what runs, on what, how.
public enum RunHeader {
    public static func render(_ identity: RuntimeIdentity, cacheMode: CacheMode) -> String {
        if identity.inProcess == false {
            return [
                "\(identity.engine) \(identity.build), served at \(identity.endpoint ?? "?")",
                "model     \(identity.model.path) — \(identity.model.description)",
                "context   \(identity.contextSize > 0 ? "\(identity.contextSize) tokens" : "not reported by the server"), "
                    + "cache mode \(cacheMode.rawValue)"
                    + " (reuse as the server reports it; memory is the server's, not measured here)",
            ].joined(separator: "\n")
        }
        var lines = ["\(identity.engine) \(identity.build)"]
        lines.append("model     \(identity.model.path) — \(identity.model.description), \(Format.bytes(identity.model.fileBytes))")
        lines.append("template  \(identity.chatTemplate) (\(identity.chatTemplateSource))")
        lines.append(
            "context   \(identity.contextSize) tokens, KV cache \(Format.bytes(identity.kvCacheBytes)), batch \(identity.batchSize), "
                + "\(identity.threads) threads, cache mode \(cacheMode.rawValue)"
        )
        if let window = identity.slidingWindow {
            let cache = identity.slidingWindowCache ?? .full
            lines.append(
                "window    \(window)-token sliding attention, cache "
                    + "\(cache == .full ? "full (any prefix reusable)" : "windowed (a trim past the window re-evaluates the prompt)")"
            )
        }
        lines.append(
            "load      \(Format.duration(identity.loadSeconds)) (+ warm-up \(Format.duration(identity.warmupSeconds))), "
                + "not counted in any turn"
        )
        return lines.joined(separator: "\n")
    }
}

extension RunHeader {
    /// "03797f5 on main (dirty: 2 modified, 1 untracked) — Subject line"
    public static func describe(_ snapshot: GitSnapshot?) -> String {
        guard let snapshot else { return "none (not a git repository)" }
        guard let short = snapshot.shortCommit else { return "no commits yet on \(snapshot.branch ?? "HEAD")" }
        let place = snapshot.branch.map { "on \($0)" } ?? "detached"
        let state = snapshot.isDirty ? " (dirty: \(snapshot.modifiedCount) modified, \(snapshot.untrackedCount) untracked)" : ""
        return "\(short) \(place)\(state)" + (snapshot.subject.map { " — \($0)" } ?? "")
    }
}
