import Foundation

/// Who holds the process's resident memory: llama.cpp (the model file's mapping, and the large
/// anonymous regions that appeared while the context was created — KV cache and compute
/// buffers) or the harness (everything else: libraries' code, the Swift heap).
///
/// Why not "peak RSS minus llama.cpp's accounting": llama.cpp reports what it reserves, and much
/// of it is never touched (a 4096-token KV cache holding 700 tokens, compute buffers sized for
/// the largest batch, weights mapped but read only as needed), so that difference is usually
/// negative and says nothing. Resident pages, attributed by mapping, are what the harness adds.
struct MemoryAttribution {
    struct Mapping {
        var start: UInt64
        var size: Int
        /// The file mapped, or "" for anonymous memory (the heap included).
        var path: String
        var residentBytes: Int
    }

    /// The mappings of this process with their resident bytes (/proc/self/smaps).
    static func mappings() -> [Mapping] {
        // Read to the end: /proc files report a size of 0, and reading "the file" reads one chunk.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return [] }
        let text = String(decoding: data, as: UTF8.self)
        var result: [Mapping] = []
        for line in text.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " ") {
                let start = UInt64(line[..<dash], radix: 16) ?? 0
                let end = UInt64(line[line.index(after: dash)..<space], radix: 16) ?? start
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                let path = fields.count > 5 ? String(fields[5]).trimmingCharacters(in: .whitespaces) : ""
                result.append(Mapping(start: start, size: Int(end - start), path: path, residentBytes: 0))
            } else if line.hasPrefix("Rss:"), !result.isEmpty {
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                result[result.count - 1].residentBytes = kilobytes * 1024
            }
        }
        return result
    }

    /// Anonymous regions of at least 1 MiB present now that were not in `before`: the buffers
    /// llama.cpp allocated in between.
    static func newLargeAnonymousRegions(since before: [Mapping], now: [Mapping]) -> Set<UInt64> {
        let known = Set(before.map(\.start))
        return Set(now.filter { ($0.path.isEmpty) && $0.size >= 1 << 20 && !known.contains($0.start) }.map(\.start))
    }

    struct Split {
        var total: Int
        var modelFile: Int
        var engineBuffers: Int
        /// llama.cpp's own libraries (libllama, libggml*, libgomp).
        var engineCode: Int
        var harnessCode: Int
        var harnessData: Int
        var harness: Int { harnessCode + harnessData }
    }

    /// The resident memory now, split between llama.cpp and the harness.
    static func split(modelPath: String, engineRegions: Set<UInt64>) -> Split {
        var split = Split(total: 0, modelFile: 0, engineBuffers: 0, engineCode: 0, harnessCode: 0, harnessData: 0)
        let engineLibraries = ["/libllama", "/libggml", "/libgomp"]
        let model = URL(fileURLWithPath: modelPath).resolvingSymlinksInPath().path
        for mapping in mappings() {
            split.total += mapping.residentBytes
            if mapping.path == model || mapping.path == modelPath {
                split.modelFile += mapping.residentBytes
            } else if engineRegions.contains(mapping.start) {
                split.engineBuffers += mapping.residentBytes
            } else if engineLibraries.contains(where: mapping.path.contains) {
                split.engineCode += mapping.residentBytes
            } else if mapping.path.hasPrefix("/") {
                split.harnessCode += mapping.residentBytes
            } else {
                split.harnessData += mapping.residentBytes
            }
        }
        return split
    }
}
