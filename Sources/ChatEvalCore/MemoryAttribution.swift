import Foundation

/// Who holds the process's resident memory: llama.cpp (the model file's mapping, the large
/// anonymous regions that appeared while its context was created — KV cache and compute
/// buffers —, the heap of the thread that makes its calls, and its own libraries) or the harness
/// (every other file mapped: the executable, the Swift and C libraries it loads, git's packs;
/// every other anonymous region: the Swift heap, stacks).
///
/// Why not "peak RSS minus llama.cpp's accounting": llama.cpp reports what it reserves, and much
/// of it is never touched (a 4096-token KV cache holding 700 tokens, compute buffers sized for
/// the largest batch, weights mapped but read only as needed), so that difference is usually
/// negative and says nothing. Resident pages, attributed by mapping, are what the harness adds.
///
/// A library's resident pages are counted whole, shared or not (RSS, not PSS): what this process
/// would need if it ran alone. Loading a library makes some of it resident before any of its code
/// runs (libFoundation.so: 3.5 MiB at `main`; README, "What the harness itself holds").
///
/// What it cannot tell apart: an anonymous region that appeared while the model loaded is counted
/// whole as llama.cpp's (another thread's allocation in that window too); where the kernel
/// merged a new region with an older neighbour, the merged mapping is found as new only if its
/// start moved, and is then the engine's whole, the neighbour's pages included; and the calling
/// thread's heap holds the runtime's own small allocations beside llama.cpp's.
///
/// Pure: the mappings come from `ProcessMemory.mappings()` (ChatEvalRuntime) or a test.
public enum MemoryAttribution {
    public struct Mapping: Equatable, Sendable {
        public var start: UInt64
        public var size: Int
        /// The file mapped, or "" for anonymous memory (the heap included).
        public var path: String
        public var residentBytes: Int
        /// The addresses it spans.
        public var range: Range<UInt64> { start..<(start + UInt64(size)) }

        public init(start: UInt64, size: Int, path: String, residentBytes: Int) {
            self.start = start
            self.size = size
            self.path = path
            self.residentBytes = residentBytes
        }
    }

    /// The mappings a `/proc/PID/smaps` text lists: each header line ("start-end perms offset
    /// device inode [path]") starts one, and its "Rss:" line (in kB) gives its resident bytes.
    /// Other lines are skipped; a header whose range does not parse is skipped with its lines. A
    /// file removed since it was mapped keeps its path (the kernel's " (deleted)" taken off).
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
                var path = fields.count > 5 ? String(fields[5]).trimmingCharacters(in: .whitespaces) : ""
                if path.hasPrefix("/"), path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
                result.append(Mapping(start: start, size: Int(end - start), path: path, residentBytes: 0))
                inMapping = true
            } else if inMapping, line.hasPrefix("Rss:") {
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                result[result.count - 1].residentBytes = kilobytes * 1024
            }
        }
        return result
    }

    /// The address ranges of the anonymous regions of at least 1 MiB in `now` that were not in
    /// `before` (by start): the buffers llama.cpp allocated in between.
    public static func newLargeAnonymousRegions(since before: [Mapping], now: [Mapping]) -> [Range<UInt64>] {
        let known = Set(before.map(\.start))
        return now.filter { $0.path.isEmpty && $0.size >= 1 << 20 && !known.contains($0.start) }.map(\.range)
    }

    /// A process's resident memory, split between llama.cpp and the harness.
    public struct Split: Equatable, Sendable {
        public var total = 0
        public var modelFile = 0
        public var engineBuffers = 0
        /// llama.cpp's own libraries (libllama, libggml*, libgomp).
        public var engineCode = 0
        /// Every other file mapped: code and libraries mostly, and the data files read through a
        /// mapping (git's packs, the locale archive).
        public var harnessFiles = 0
        /// Every other anonymous region: the heap, stacks.
        public var harnessAnonymous = 0
        /// `harnessFiles` by path, so that a report can say which libraries hold it.
        public var harnessBytesByFile: [String: Int] = [:]
        public var harness: Int { harnessFiles + harnessAnonymous }

        public init() {}

        /// The files holding most of `harnessFiles`, largest first (ties by path).
        public func largestHarnessFiles(_ count: Int) -> [(file: String, bytes: Int)] {
            harnessBytesByFile.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(count).map { (file: $0.key, bytes: $0.value) }
        }
    }

    /// The files of llama.cpp's code: its libraries and the OpenMP runtime its CPU backend uses.
    static let engineLibraries = ["/libllama", "/libggml", "/libgomp"]

    /// `mappings` split: the model file (by `modelPaths`, as given or with symlinks resolved),
    /// the engine's buffers (every anonymous mapping that overlaps one of `engineRegions`, from
    /// `newLargeAnonymousRegions` and the engine thread's heap: by overlap, not start, because
    /// the kernel merges a region with a neighbour of the same protection, or splits it), its
    /// libraries, then every other file as the harness's and every other anonymous region.
    public static func split(_ mappings: [Mapping], modelPaths: [String], engineRegions: [Range<UInt64>]) -> Split {
        let models = Set(modelPaths + modelPaths.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path })
        var split = Split()
        for mapping in mappings {
            split.total += mapping.residentBytes
            if models.contains(mapping.path) {
                split.modelFile += mapping.residentBytes
            } else if mapping.path.isEmpty, engineRegions.contains(where: { $0.overlaps(mapping.range) }) {
                split.engineBuffers += mapping.residentBytes
            } else if engineLibraries.contains(where: mapping.path.contains) {
                split.engineCode += mapping.residentBytes
            } else if mapping.path.hasPrefix("/") {
                split.harnessFiles += mapping.residentBytes
                split.harnessBytesByFile[mapping.path, default: 0] += mapping.residentBytes
            } else {
                split.harnessAnonymous += mapping.residentBytes
            }
        }
        return split
    }
}
