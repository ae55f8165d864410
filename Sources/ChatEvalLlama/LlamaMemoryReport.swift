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
}
