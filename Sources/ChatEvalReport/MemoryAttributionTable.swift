import ChatEvalCore
import Foundation

/// A process's resident memory split between llama.cpp and the harness (`MemoryAttribution`),
/// as a table in MiB: what `chateval run --memory-attribution` prints after a model's run and
/// what the throughput bench prints for its own process.
public enum MemoryAttributionTable {
    /// The harness's goal in issue 46: 30 MB.
    public static let harnessGoalBytes = 30_000_000

    /// The table, with the `largest` files holding the harness's code under its line, and
    /// `extraRows` (label, bytes) at the end.
    public static func render(_ split: MemoryAttribution.Split, largest: Int = 8, extraRows: [(String, Int?)] = [], indent: String = "")
        -> String
    {
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
        table.add([
            String(format: "harness total (goal ≤ 30 MB = %.1f MiB)", Double(harnessGoalBytes) / 1_048_576), mib(split.harness),
        ])
        for (label, bytes) in extraRows { table.add([label, mib(bytes)]) }
        return table.render(indent: indent)
    }

    /// Bytes in MiB with one decimal (the unit in the header, not each cell: `Format.bytes`
    /// picks its unit per value); "–" when unknown.
    static func mib(_ bytes: Int?) -> String { bytes.map { String(format: "%.1f", Double($0) / 1_048_576) } ?? "–" }
}
