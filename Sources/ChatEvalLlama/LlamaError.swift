/// A llama.cpp call that failed, named, with what llama.cpp logged about it.
///
/// A struct with a nested code (new codes never break callers). `description` is one line that
/// says what failed and what to do.
public struct LlamaError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let modelNotFound = Code(rawValue: "model_not_found")
        public static let modelUnreadable = Code(rawValue: "model_unreadable")
        public static let notGGUF = Code(rawValue: "not_gguf")
        public static let modelLoadFailed = Code(rawValue: "model_load_failed")
        public static let contextCreationFailed = Code(rawValue: "context_creation_failed")
        public static let unknownChatTemplate = Code(rawValue: "unknown_chat_template")
        public static let invalidParameter = Code(rawValue: "invalid_parameter")
        public static let decodeFailed = Code(rawValue: "decode_failed")
        /// The engine's build record names instructions this CPU lacks (it would die with SIGILL).
        public static let engineBuiltForAnotherCPU = Code(rawValue: "engine_built_for_another_cpu")
        /// The engine's build record is there but cannot be trusted (past its bound, not a file).
        public static let engineRecordUnreadable = Code(rawValue: "engine_record_unreadable")
    }

    public var code: Code
    /// The C function that failed, e.g. "llama_model_load_from_file"; nil for checks made before any call.
    public var pointOfFailure: String?
    /// What went wrong and what to do, in one sentence.
    public var message: String
    /// The last lines llama.cpp logged before the failure (its own explanation), if any.
    public var engineLog: [String]

    public init(_ code: Code, _ message: String, pointOfFailure: String? = nil, engineLog: [String] = []) {
        self.code = code
        self.message = message
        self.pointOfFailure = pointOfFailure
        self.engineLog = engineLog
    }

    public var description: String {
        var text = message
        if let pointOfFailure { text += " (\(pointOfFailure) failed" + (engineLog.last.map { ": \($0)" } ?? "") + ")" }
        return text
    }
}
