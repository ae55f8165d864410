import ChatEvalCore
import ChatEvalStore

/// How each side of a comparison measured its peak memory — above its model's own load baseline
/// or as the process's whole, and in what process (alone, or the k-th of n models loaded one
/// after the other in one process) — when the sides differ in it.
///
/// A process's resident memory carries what it held before the model: a model run first of two
/// (after the other's vocabulary was checked) measured about 25 MiB more than the same model
/// alone (279.3 against 255 MiB on SmolLM2), and `compare` called that a 9.7% regression. Peaks
/// measured above the model's own baseline (`EngineMemory.peakBasis`) are much closer — 128.6
/// against 132.3 MiB, within 3% — but not equal: part of what the process held before the load
/// is memory the load then reuses. A model loaded after another model *ran* in its process
/// differs more (122.1 MiB, 8% below alone). So peak memory is compared across process contexts
/// only when both sides measured it above their own baseline and each model was the first its
/// process loaded (alone, or first of several); anything else — a model loaded after another,
/// or the process's whole on either side — is not peak memory of the same thing: it is left out
/// of the comparison, and the comparison says why.
public struct MemoryContext: Codable, Sendable, Hashable {
    /// Each side's context in words: "the model's own peak, alone in its process".
    public var base: String
    public var head: String
    /// True when peak memory was compared anyway (both sides measured above their model's own baseline).
    public var compared: Bool

    /// The sentence the reports print.
    public var sentence: String {
        compared
            ? "peak memory measured in different process contexts (base: \(base); head: \(head)), each above its model's "
                + "own baseline and loaded first in its process: compared"
            : "peak memory measured in different process contexts (base: \(base); head: \(head)): not compared"
    }

    /// The difference between the sides' contexts, or nil when they measured alike (or measured
    /// no memory: a served model's memory is the server's).
    public static func between(base: [RunRecord], head: [RunRecord]) -> MemoryContext? {
        let baseContexts = Set(base.compactMap(Context.init)), headContexts = Set(head.compactMap(Context.init))
        guard !baseContexts.isEmpty, !headContexts.isEmpty, baseContexts != headContexts else { return nil }
        let comparable = baseContexts.union(headContexts).allSatisfy { $0.ownBaseline && ($0.place ?? 1) == 1 }
        return MemoryContext(
            base: baseContexts.map(\.words).sorted().joined(separator: " or "),
            head: headContexts.map(\.words).sorted().joined(separator: " or "), compared: comparable)
    }

    /// One run's measurement context.
    struct Context: Hashable {
        var ownBaseline: Bool
        /// (place, models) of a side-by-side run; nil alone.
        var place: Int?
        var models: Int?

        init?(_ run: RunRecord) {
            guard run.runtime.inProcess != false, run.runtime.memory != nil || run.group != nil else { return nil }
            ownBaseline = run.runtime.memory?.peakBasis == EngineMemory.aboveLoadBaseline
            place = run.group.map(\.index)
            models = run.group.map(\.count)
        }

        var words: String {
            let process = place.map { "model \($0) of \(models ?? $0) in one process" } ?? "alone in its process"
            return (ownBaseline ? "the model's own peak, " : "the process's whole peak, ") + process
        }
    }
}
