import ChatEvalCore
import Foundation
internal import Yams

/// The project file (`chateval.yaml` at the repository root, optional): what a run uses when the
/// command line does not say otherwise, committed with the suites so that a commit determines
/// its run.
///
/// ```yaml
/// model:
///   path: ${CHATEVAL_CACHE}/models/SmolLM2-135M-Instruct.Q4_1.gguf
///   sha256: b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
/// # or, to run the suites against several models side by side (one result record each):
/// # models:
/// #   - {path: models/a.gguf, sha256: ...}
/// #   - {path: models/b.gguf, chat_template: gemma, label: gemma-270m}
/// chat_template: embedded     # or a llama.cpp built-in name, for models that store none
/// context_size: 4096
/// threads: 2
/// batch_size: 512
/// cache_mode: session
/// repetitions: 10
/// max_repetitions: 30         # run --baseline: the most repetitions per side it adds in rounds
/// time_budget: 20m            # run --baseline: no round starts that would end past this
/// warmup: 1
/// suites: suites              # a folder or a list of files and folders
/// reports: reports
/// compare: {preset: default}  # see ComparisonSection
/// ```
///
/// Paths are relative to the project file's folder. `${NAME}` in a path is the environment
/// variable NAME; `${CHATEVAL_CACHE}` defaults to `~/.cache/chateval` and a leading `~` is the
/// home folder.
public struct ProjectFile: Sendable, Hashable {
    /// The conventional name at the repository root.
    public static let fileName = "chateval.yaml"

    /// Where it was read from (a path, or `REV:chateval.yaml` for a commit's).
    public var source: String
    /// Its text, as read (for the record's digest).
    public var text: String
    /// The models a run uses, side by side when there are several (`model:` is one, `models:` a list).
    public var models: [ModelReference]?
    public var chatTemplate: String?
    public var contextSize: Int?
    public var threads: Int?
    public var batchSize: Int?
    /// `sliding_window_cache: full | window` (see `SlidingWindowCache`).
    public var slidingWindowCache: SlidingWindowCache?
    public var cacheMode: CacheMode?
    public var repetitions: Int?
    /// `run --baseline`: the most repetitions per side the sequential design may use.
    public var maxRepetitions: Int?
    /// `run --baseline`: seconds after which no new round starts.
    public var timeBudget: Double?
    public var warmup: Int?
    /// As written (relative paths are relative to the project file's folder).
    public var suites: [String]?
    public var reports: String?
    public var compare: ComparisonOverrides?
    /// Which exact ledger changes fail a comparison (`ledger:`; see `LedgerGates`).
    public var ledger: LedgerGates?
    /// A served runtime (`runtime:`; see `ServedRuntime`).
    public var runtime: ServedRuntime?

    /// A model file, the digest it must have, and what is particular to it in a side-by-side run.
    public struct ModelReference: Sendable, Hashable {
        /// With `${...}` and `~` expanded; relative paths are relative to the project folder.
        public var path: String
        /// Lowercase hex SHA-256; a run refuses a file with another digest.
        public var sha256: String?
        /// This model's chat template, over the file's `chat_template`.
        public var chatTemplate: String?
        /// This model's context size, over the file's `context_size`.
        public var contextSize: Int?
        /// Its name in reports (default: the file name without `.gguf`).
        public var label: String?

        public init(path: String, sha256: String? = nil, chatTemplate: String? = nil, contextSize: Int? = nil, label: String? = nil) {
            self.path = path
            self.sha256 = sha256
            self.chatTemplate = chatTemplate
            self.contextSize = contextSize
            self.label = label
        }
    }

    static let keys = [
        "model", "models", "chat_template", "context_size", "threads", "batch_size", "sliding_window_cache", "cache_mode",
        "repetitions",
        "max_repetitions", "time_budget", "warmup", "suites", "reports", "compare", "runtime", "ledger",
    ]

    /// Parses a project file; `source` names it in errors, `environment` expands `${...}`.
    public static func parse(_ text: String, source: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(SuiteErrors) -> ProjectFile
    {
        if text.utf8.count > maximumFileBytes {
            throw SuiteErrors([
                SuiteError(.tooComplex, file: source, "the project file is \(text.utf8.count) bytes; at most \(maximumFileBytes) are read")
            ])
        }
        let root = try YAMLDocument.compose(text, file: source)
        var project = ProjectFile(source: source, text: text)
        guard let root else { return project }  // an empty file sets nothing
        let reader = YAMLReader(file: source)
        if let entries = reader.mapping(root, "the project file", allowed: keys) {
            project.models = models(entries, reader, environment)
            project.readEngineSettings(entries, reader)
            project.readRunSettings(entries, reader)
        }
        if !reader.errors.isEmpty { throw SuiteErrors(reader.errors) }
        return project
    }

    /// The models of `model:` (one) or `models:` (a list, at least one); nil when neither is
    /// given, or both (an error).
    private static func models(_ entries: [String: Node], _ reader: YAMLReader, _ environment: [String: String]) -> [ModelReference]? {
        if entries["model"] != nil, let list = entries["models"] {
            reader.fail(
                .invalidValue, at: list, "the project file has both 'model' and 'models'",
                hint: "list every model under models: (or keep one model:)")
        } else if let single = entries["model"] {
            return modelReference(single, reader, environment, perModel: false).map { [$0] }
        } else if let list = entries["models"], let items = reader.sequence(list, "models") {
            if items.isEmpty { reader.fail(.invalidValue, at: list, "models is empty", hint: "list at least one model file") }
            let models = items.compactMap { modelReference($0, reader, environment, perModel: true) }
            return models.isEmpty ? nil : models
        }
        return nil
    }

    /// How the engine is set up: chat template, context and batch size, threads, the sliding
    /// window's cache and the cache mode.
    private mutating func readEngineSettings(_ entries: [String: Node], _ reader: YAMLReader) {
        chatTemplate = entries["chat_template"].flatMap { reader.string($0, "chat_template") }
        contextSize = entries["context_size"].flatMap {
            reader.integer($0, "context_size", minimum: RuntimeLimits.contextSize.lowerBound, maximum: RuntimeLimits.contextSize.upperBound)
        }
        threads = entries["threads"].flatMap {
            reader.integer($0, "threads", minimum: 1, maximum: RuntimeLimits.maximumThreads)
        }
        batchSize = entries["batch_size"].flatMap {
            reader.integer($0, "batch_size", minimum: 1, maximum: RuntimeLimits.contextSize.upperBound)
        }
        slidingWindowCache = entries["sliding_window_cache"].flatMap {
            Self.named(
                $0, "sliding_window_cache", reader,
                hint: "full (every position cached) or window (about the window only, as llama-server by default)")
        }
        cacheMode = entries["cache_mode"].flatMap { Self.named($0, "cache_mode", reader, hint: "session or cold") }
    }

    /// How the suites are run and compared: repetitions, the time budget, warm-up, which suites,
    /// where reports go, comparison settings, a served runtime and the ledger's gates.
    private mutating func readRunSettings(_ entries: [String: Node], _ reader: YAMLReader) {
        repetitions = entries["repetitions"].flatMap { reader.integer($0, "repetitions", minimum: 1, maximum: 10_000) }
        maxRepetitions = entries["max_repetitions"].flatMap {
            reader.integer($0, "max_repetitions", minimum: 2, maximum: 10_000)
        }
        timeBudget = entries["time_budget"].flatMap { node in
            reader.string(node, "time_budget").flatMap { text in
                guard let seconds = DurationText.seconds(text), seconds > 0 else {
                    reader.fail(
                        .invalidValue, at: node, "time_budget '\(text.prefix(40))' is not a duration",
                        hint: "write e.g. 20m, 90s or 1h30m")
                    return nil
                }
                return seconds
            }
        }
        warmup = entries["warmup"].flatMap { reader.integer($0, "warmup", minimum: 0, maximum: 10_000) }
        suites = entries["suites"].flatMap { reader.strings($0, "suites") }
        reports = entries["reports"].flatMap { reader.string($0, "reports") }
        compare = entries["compare"].flatMap {
            ComparisonSection(reader: reader).overrides($0, allowed: ComparisonSection.projectKeys)
        }
        runtime = entries["runtime"].flatMap { Self.servedRuntime($0, reader) }
        ledger = entries["ledger"].flatMap { LedgerSection(reader: reader).gates($0) }
    }

    /// The value `key` names (one of `Value`'s raw values); an unknown name is an error with `hint`.
    private static func named<Value: RawRepresentable<String>>(_ node: Node, _ key: String, _ reader: YAMLReader, hint: String) -> Value? {
        reader.string(node, key).flatMap { name in
            guard let value = Value(rawValue: name) else {
                reader.fail(.invalidValue, at: node, "unknown \(key) '\(name)'", hint: hint)
                return nil
            }
            return value
        }
    }

    /// Largest project file accepted (a real one is a few hundred bytes).
    public static let maximumFileBytes = 1 << 20

    /// Reads `path` if it exists; nil when there is no such file.
    public static func load(path: String) throws(SuiteErrors) -> ProjectFile? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
        // An empty file sets nothing, and is not read (a size-0 read leaks 4 KiB: see SuiteLoader.readText).
        if size == 0, FileManager.default.isReadableFile(atPath: path) { return try parse("", source: path) }
        if let size, size > maximumFileBytes {
            throw SuiteErrors([
                SuiteError(
                    .tooComplex, file: path, "the project file is \(size) bytes; at most \(maximumFileBytes) are read",
                    hint: "a project file names a model and a few settings")
            ])
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SuiteErrors([
                SuiteError(
                    .unreadable, file: path, "cannot read the project file as UTF-8 text", hint: "check its permissions and encoding")
            ])
        }
        return try parse(text, source: path)
    }

    private static func modelReference(_ node: Node, _ reader: YAMLReader, _ environment: [String: String], perModel: Bool)
        -> ModelReference?
    {
        let pathNode: Node?
        var sha256: String?
        var reference = ModelReference(path: "")
        if case .scalar = node {
            pathNode = node
        } else {
            let allowed = perModel ? ["path", "sha256", "chat_template", "context_size", "label"] : ["path", "sha256"]
            guard let entries = reader.mapping(node, "model", allowed: allowed) else { return nil }
            pathNode = entries["path"]
            reference.chatTemplate = entries["chat_template"].flatMap { reader.string($0, "chat_template") }
            reference.contextSize = entries["context_size"].flatMap {
                reader.integer(
                    $0, "context_size", minimum: RuntimeLimits.contextSize.lowerBound, maximum: RuntimeLimits.contextSize.upperBound)
            }
            reference.label = entries["label"].flatMap { reader.string($0, "label") }
            if pathNode == nil { reader.fail(.missingKey, at: node, "model needs a 'path'") }
            if let digestNode = entries["sha256"], let digest = reader.string(digestNode, "model.sha256") {
                if digest.count == 64, digest.allSatisfy(\.isHexDigit) {
                    sha256 = digest.lowercased()
                } else {
                    reader.fail(
                        .invalidValue, at: digestNode, "model.sha256 must be 64 hexadecimal digits, found '\(digest.prefix(70))'",
                        hint: "sha256sum MODEL prints it")
                }
            }
        }
        guard let pathNode, let written = reader.string(pathNode, "model.path") else { return nil }
        do {
            reference.path = try expandPath(written, environment: environment)
            reference.sha256 = sha256
            return reference
        } catch {
            reader.fail(.invalidValue, at: pathNode, error.message, hint: error.hint)
            return nil
        }
    }

    struct ExpansionError: Error {
        var message: String
        var hint: String?
    }

    /// `${NAME}` → the environment variable (`CHATEVAL_CACHE` defaults to ~/.cache/chateval),
    /// a leading `~` → the home folder.
    static func expandPath(_ path: String, environment: [String: String]) throws(ExpansionError) -> String {
        var result = ""
        var rest = Substring(path)
        // Scanned by characters, linear in the path (Foundation's range(of:) is not, on substrings).
        while let dollar = rest.firstIndex(of: "$") {
            let afterDollar = rest.index(after: dollar)
            guard afterDollar != rest.endIndex, rest[afterDollar] == "{" else {
                result += rest[...dollar]
                rest = rest[afterDollar...]
                continue
            }
            result += rest[..<dollar]
            let nameStart = rest.index(after: afterDollar)
            guard let close = rest[nameStart...].firstIndex(of: "}") else {
                throw ExpansionError(message: "model.path has '${' without a closing '}'", hint: "write ${NAME}")
            }
            let name = String(rest[nameStart..<close])
            if let value = environment[name], !value.isEmpty {
                result += value
            } else if name == "CHATEVAL_CACHE" {
                result += homeDirectory(environment) + "/.cache/chateval"
            } else {
                throw ExpansionError(
                    message: "model.path uses ${\(name.prefix(60))}, which is not set in the environment",
                    hint: "set \(name.prefix(60)) or write the path")
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        if result == "~" || result.hasPrefix("~/") { result = homeDirectory(environment) + result.dropFirst() }
        return result
    }

    private static func homeDirectory(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
    }
}
