import ChatEvalCore
import Foundation

/// What llama.cpp reports allocating while it loads a model and creates a context, read from its
/// log ("CPU_Mapped model buffer size =    92.10 MiB", "CPU KV buffer size =    90.00 MiB",
/// "CPU compute buffer size =   106.77 MiB", "CPU output buffer size =     0.19 MiB").
///
/// From the log because llama.cpp's breakdown function (`llama_get_memory_breakdown`) is not
/// part of its C API: it returns a C++ `std::map` of a struct declared in an internal header
/// that is not installed, so its layout cannot be relied on for a system llama.cpp of another
/// version. A line that does not parse leaves its figure unknown.
enum LlamaMemoryReport {
    static func parse(_ lines: [String]) -> EngineMemory {
        var memory = EngineMemory()
        func add(_ bytes: Int, to field: WritableKeyPath<EngineMemory, Int?>) {
            memory[keyPath: field] = (memory[keyPath: field] ?? 0) + bytes
        }
        for line in lines {
            guard let marker = line.range(of: " buffer size = ") else { continue }
            let before = line[..<marker.lowerBound]
            let amount = line[marker.upperBound...].split(separator: " ", omittingEmptySubsequences: true)
            guard amount.count >= 2, let value = Double(amount[0]), value.isFinite, value >= 0 else { continue }
            let scale: Double =
                switch amount[1] {
                case "MiB": 1_048_576
                case "KiB": 1024
                case "GiB": 1_073_741_824
                case "B": 1
                default: 0
                }
            guard scale > 0 else { continue }
            let bytes = Int((value * scale).rounded())
            if before.hasSuffix(" model") {
                add(bytes, to: \.modelBytes)
            } else if before.hasSuffix(" KV") {
                add(bytes, to: \.kvCacheBytes)
            } else if before.hasSuffix(" compute") {
                add(bytes, to: \.computeBytes)
            } else if before.hasSuffix(" output") {
                add(bytes, to: \.outputBytes)
            }
        }
        return memory
    }

    /// One KV cache of a context, from "llama_kv_cache: size =   90.00 MiB (  4096 cells,  30
    /// layers, ...)": a sliding-window model has two (the windowed layers' may hold fewer cells).
    struct KVCache: Equatable {
        var bytes: Int
        var cells: Int
    }

    /// The KV caches the lines report, in order; empty when none parses.
    static func kvCaches(_ lines: [String]) -> [KVCache] {
        lines.compactMap { line in
            guard let size = line.range(of: " size = "), !line[..<size.lowerBound].hasSuffix(" buffer") else { return nil }
            let words = line[size.upperBound...].split(whereSeparator: { $0 == " " || $0 == "(" })
            guard words.count >= 4, words[1] == "MiB", let mebibytes = Double(words[0]), mebibytes.isFinite, mebibytes >= 0,
                words[3].hasPrefix("cells"), let cells = Int(words[2]), cells > 0
            else { return nil }
            return KVCache(bytes: Int((mebibytes * 1_048_576).rounded()), cells: cells)
        }
    }

    /// Bytes the caches hold for `tokens` cached positions: each cache's bytes per cell times the
    /// cells in use, at most all of its cells.
    static func bytesInUse(_ caches: [KVCache], tokens: Int) -> Int {
        caches.reduce(0) { total, cache in
            total + Int((Double(cache.bytes) / Double(cache.cells) * Double(min(tokens, cache.cells))).rounded())
        }
    }
}
