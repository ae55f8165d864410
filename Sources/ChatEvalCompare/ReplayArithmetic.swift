import ChatEvalCore
import ChatEvalStore

/// What decides the arithmetic of a greedy replay, beside its input: the engine and its build
/// (for llama.cpp in process, the build's key names the CPU's instruction sets it was compiled
/// for), the threads and batch size it computed with, and the CPU. Two replays of one input
/// under the same arithmetic give the same tokens; under another, a near-tie can flip (the
/// README's `--verify-cache` section shows a batch of 81 prompt tokens summing in another order
/// than one of 19). A ledger compared across arithmetics is reported, never gated.
public struct ReplayArithmetic: Codable, Sendable, Hashable {
    public var engine: String
    public var build: String
    public var threads: Int
    public var batchSize: Int
    /// The CPU's model name and architecture ("AMD EPYC, x86_64").
    public var cpu: String

    public init(engine: String, build: String, threads: Int, batchSize: Int, cpu: String) {
        self.engine = engine
        self.build = build
        self.threads = threads
        self.batchSize = batchSize
        self.cpu = cpu
    }

    /// The arithmetic `run` computed with.
    public init(_ run: RunRecord) {
        self.init(
            engine: run.runtime.engine, build: run.runtime.build, threads: run.runtime.threads, batchSize: run.runtime.batchSize,
            cpu: "\(run.machine.cpuModel), \(run.machine.architecture)")
    }

    /// What differs from `other`, in words ("threads 4 → 1", "CPU Intel Xeon → AMD EPYC"); empty
    /// when nothing does.
    public func differences(to other: ReplayArithmetic) -> [String] {
        var found: [String] = []
        if engine != other.engine { found.append("engine \(engine) → \(other.engine)") }
        if build != other.build { found.append("engine build \(build) → \(other.build)") }
        if threads != other.threads { found.append("threads \(threads) → \(other.threads)") }
        if batchSize != other.batchSize { found.append("batch size \(batchSize) → \(other.batchSize)") }
        if cpu != other.cpu { found.append("CPU \(cpu) → \(other.cpu)") }
        return found
    }

    /// Why the exact rules of a comparison of `base` with `head` cannot gate: the arithmetics the
    /// sides computed with differ (or differ within a side); nil when every run computed alike.
    public static func reasonNotToGate(base: [RunRecord], head: [RunRecord]) -> String? {
        let baseSet = Set(base.map(ReplayArithmetic.init)), headSet = Set(head.map(ReplayArithmetic.init))
        guard let one = baseSet.first, let other = headSet.first else { return nil }
        if baseSet.count > 1 || headSet.count > 1 {
            return "the runs of one side computed with different arithmetic (engine build, threads, batch size or CPU)"
        }
        let differences = one.differences(to: other)
        guard !differences.isEmpty else { return nil }
        return "base and head computed with different arithmetic (\(differences.joined(separator: "; "))): "
            + "a greedy answer can flip on a near-tie, so a difference is not the code's alone"
    }
}
