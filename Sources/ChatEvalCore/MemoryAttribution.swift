import Foundation

/// Who holds the process's resident memory: llama.cpp (the model file's mapping, the large
/// anonymous regions that appeared while its context was created — KV cache and compute
/// buffers —, the heap of the thread that makes its calls, and its own libraries) or the harness
/// (everything else: the executable, the Swift and C libraries it loads, the Swift heap).
///
/// Why not "peak RSS minus llama.cpp's accounting": llama.cpp reports what it reserves, and much
/// of it is never touched (a 4096-token KV cache holding 700 tokens, compute buffers sized for
/// the largest batch, weights mapped but read only as needed), so that difference is usually
/// negative and says nothing. Resident pages, attributed by mapping, are what the harness adds.
///
/// A library's resident pages are counted whole, shared or not (RSS, not PSS): what this process
/// would need if it ran alone. Loading a library makes some of it resident before any of its code
/// runs (libFoundation.so: 3.5 MiB at `main`; README, "Harness memory").
///
/// Pure: the mappings come from `ProcessMemory.mappings()` (ChatEvalRuntime) or a test.
public enum MemoryAttribution {
    public struct Mapping: Equatable, Sendable {
        public var start: UInt64
        public var size: Int
        /// The file mapped, or "" for anonymous memory (the heap included).
        public var path: String
        public var residentBytes: Int

        public init(start: UInt64, size: Int, path: String, residentBytes: Int) {
            self.start = start
            self.size = size
            self.path = path
            self.residentBytes = residentBytes
        }
    }

    /// The mappings a `/proc/PID/smaps` text lists: each header line ("start-end perms offset
    /// device inode [path]") starts one, and its "Rss:" line (in kB) gives its resident bytes.
    /// Other lines are skipped; a header whose range does not parse is skipped with its lines.
    public static func parse(smaps text: String) -> [Mapping] {
        var result: [Mapping] = []
        var inMapping = false
        for line in text.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "),
                dash < space
            {
                guard let start = UInt64(line[..<dash], radix: 16), let end = UInt64(line[line.index(after: dash)..<space], radix: 16),
                    end >= start
                else {
                    inMapping = false
                    continue
                }
                let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
                let path = fields.count > 5 ? String(fields[5]).trimmingCharacters(in: .whitespaces) : ""
                result.append(Mapping(start: start, size: Int(end - start), path: path, residentBytes: 0))
                inMapping = true
            } else if inMapping, line.hasPrefix("Rss:") {
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                result[result.count - 1].residentBytes = kilobytes * 1024
            }
        }
        return result
    }

    /// Anonymous regions of at least 1 MiB present in `now` that were not in `before`: the
    /// buffers llama.cpp allocated in between.
    public static func newLargeAnonymousRegions(since before: [Mapping], now: [Mapping]) -> Set<UInt64> {
        let known = Set(before.map(\.start))
        return Set(now.filter { ($0.path.isEmpty) && $0.size >= 1 << 20 && !known.contains($0.start) }.map(\.start))
    }

    /// A process's resident memory, split between llama.cpp and the harness.
    public struct Split: Equatable, Sendable {
        public var total = 0
        public var modelFile = 0
        public var engineBuffers = 0
        /// llama.cpp's own libraries (libllama, libggml*, libgomp).
        public var engineCode = 0
        public var harnessCode = 0
        public var harnessData = 0
        /// `harnessCode` by file mapped, so that a report can say which libraries hold it.
        public var harnessCodeByFile: [String: Int] = [:]
        public var harness: Int { harnessCode + harnessData }

        public init() {}

        /// The files holding most of `harnessCode`, largest first (ties by path).
        public func largestHarnessFiles(_ count: Int) -> [(file: String, bytes: Int)] {
            harnessCodeByFile.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(count).map { (file: $0.key, bytes: $0.value) }
        }
    }

    /// The files of llama.cpp's code: its libraries and the OpenMP runtime its CPU backend uses.
    static let engineLibraries = ["/libllama", "/libggml", "/libgomp"]

    /// `mappings` split: the model file (by `modelPaths`, as given or with symlinks resolved),
    /// the engine's buffers (`engineRegions`: the starts of mappings, from
    /// `newLargeAnonymousRegions` and the engine thread's heap), its libraries,
    /// then every other file as the harness's code and every other anonymous region as its data.
    public static func split(_ mappings: [Mapping], modelPaths: [String], engineRegions: Set<UInt64>) -> Split {
        let models = Set(modelPaths + modelPaths.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
        var split = Split()
        for mapping in mappings {
            split.total += mapping.residentBytes
            if models.contains(mapping.path) {
                split.modelFile += mapping.residentBytes
            } else if engineRegions.contains(mapping.start) {
                split.engineBuffers += mapping.residentBytes
            } else if engineLibraries.contains(where: mapping.path.contains) {
                split.engineCode += mapping.residentBytes
            } else if mapping.path.hasPrefix("/") {
                split.harnessCode += mapping.residentBytes
                split.harnessCodeByFile[mapping.path, default: 0] += mapping.residentBytes
            } else {
                split.harnessData += mapping.residentBytes
            }
        }
        return split
    }
}
