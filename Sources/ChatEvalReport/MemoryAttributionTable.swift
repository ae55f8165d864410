import ChatEvalCore
import Foundation

/// A process's resident memory split between llama.cpp and the harness (`MemoryAttribution`),
/// as a table in MiB: what `chateval run --memory-attribution` prints after a model's run and
/// what the throughput bench prints for its own process.
public enum MemoryAttributionTable {
    /// The table, with the `largest` files holding the harness's code under its line, the
    /// harness's total against `goalBytes` when given (a bench's target, not a user's), and
    /// `extraRows` (label, bytes) at the end.
    public static func render(
        _ split: MemoryAttribution.Split, largest: Int = 8, goalBytes: Int? = nil, extraRows: [(String, Int?)] = [], indent: String = ""
    ) -> String {
        var table = TextTable([.init("", .left), .init("MiB")])
        table.add(["process (its mappings' resident pages)", mib(split.total)])
        table.add(["  model file, mapped", mib(split.modelFile)])
        table.add(["  llama.cpp buffers (KV cache, compute) and its thread's heap", mib(split.engineBuffers)])
        table.add(["  llama.cpp and OpenMP libraries", mib(split.engineCode)])
        table.add(["  harness: files mapped (the executable, libraries, git's packs)", mib(split.harnessFiles)])
        for (file, bytes) in split.largestHarnessFiles(largest) {
            table.add(["    " + URL(fileURLWithPath: file).lastPathComponent, mib(bytes)])
        }
        table.add(["  harness: anonymous memory (heap, stacks)", mib(split.harnessAnonymous)])
        let goal = goalBytes.map { String(format: " (goal ≤ %d MB = %.1f MiB)", $0 / 1_000_000, Double($0) / 1_048_576) } ?? ""
        table.add(["harness total" + goal, mib(split.harness)])
        for (label, bytes) in extraRows { table.add([label, mib(bytes)]) }
        return table.render(indent: indent)
    }

    /// Bytes in MiB with one decimal (the unit in the header, not each cell: `Format.bytes`
    /// picks its unit per value); "–" when unknown.
    static func mib(_ bytes: Int?) -> String { bytes.map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "–" }
}
