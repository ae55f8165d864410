internal import CLlama
import ChatEvalCore
import Foundation

/// A loaded GGUF model. Owns its `llama_model *` (freed in deinit).
///
/// Immutable after loading; llama.cpp allows concurrent reads of a model (tokenizing,
/// metadata), so it may be shared between threads.
final class LlamaModel: @unchecked Sendable {
    let pointer: OpaquePointer
    let vocab: OpaquePointer
    let path: String
    let fileBytes: Int

    /// Loads the model at `path`, checking first that it exists, is readable and is GGUF, so that
    /// common mistakes get a precise message rather than llama.cpp's generic failure.
    /// `vocabularyOnly` reads the header and vocabulary without the weights (a quick check of a
    /// model before a run; such a model can tokenize and render templates, not evaluate).
    init(path: String, vocabularyOnly: Bool = false) throws(LlamaError) {
        LlamaBackend.ensureInitialised()
        try LlamaBackend.checkEngineRunsHere()
        let fileBytes = try Self.checkGGUFFile(at: path)
        let mark = LlamaLog.mark()
        var parameters = llama_model_default_params()
        parameters.n_gpu_layers = 0
        parameters.vocab_only = vocabularyOnly
        guard let pointer = EngineCrashReport.engineCall({ llama_model_load_from_file(path, parameters) }) else {
            throw LlamaError(
                .modelLoadFailed,
                "could not load the model \(path): the file may be truncated or of an unsupported architecture; "
                    + "re-download it or pass another --model",
                pointOfFailure: "llama_model_load_from_file", engineLog: LlamaLog.lines(since: mark))
        }
        guard let vocab = llama_model_get_vocab(pointer) else {
            llama_model_free(pointer)
            throw LlamaError(.modelLoadFailed, "the model \(path) has no vocabulary", pointOfFailure: "llama_model_get_vocab")
        }
        self.pointer = pointer
        self.vocab = vocab
        self.path = path
        self.fileBytes = fileBytes
    }

    deinit { llama_model_free(pointer) }

    /// The chat template stored in the GGUF, if any.
    var embeddedChatTemplate: String? {
        llama_model_chat_template(pointer, nil).map { String(cString: $0) }
    }

    /// "gemma3 270M Q4_K - Medium"
    var summary: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = llama_model_desc(pointer, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self) : "unknown"
    }

    var parameterCount: Int { Int(llama_model_n_params(pointer)) }

    /// A metadata value from the GGUF header, e.g. "general.architecture".
    func metadata(_ key: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        let count = llama_model_meta_val_str(pointer, key, &buffer, buffer.count)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(min(Int(count), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of all the model's tensors, each counted once (`llama_model_size`).
    var tensorBytes: Int { Int(clamping: llama_model_size(pointer)) }

    /// Bytes of an f16 KV cache holding `contextSize` tokens in every layer, from the model's
    /// attention geometry (`block_count`, `head_count_kv`, `key_length`, `value_length`).
    func kvCacheBytes(contextSize: Int) -> Int? {
        guard let architecture = metadata("general.architecture"),
            let layers = metadata("\(architecture).block_count").flatMap(Int.init),
            let headsKV = metadata("\(architecture).attention.head_count_kv").flatMap(Int.init)
        else { return nil }
        let keyLength =
            metadata("\(architecture).attention.key_length").flatMap(Int.init)
            ?? metadata("\(architecture).embedding_length").flatMap(Int.init).flatMap { embedding in
                metadata("\(architecture).attention.head_count").flatMap(Int.init).map { embedding / $0 }
            }
        guard let keyLength else { return nil }
        let valueLength = metadata("\(architecture).attention.value_length").flatMap(Int.init) ?? keyLength
        let bytesPerElement = 2  // f16, llama.cpp's default cache type
        return contextSize * layers * headsKV * (keyLength + valueLength) * bytesPerElement
    }

    func isEndOfGeneration(_ token: llama_token) -> Bool { llama_vocab_is_eog(vocab, token) }

    var vocabularySize: Int { Int(llama_vocab_n_tokens(vocab)) }

    /// Tokens of `text`; `addSpecial` adds BOS where the model wants it, special tokens in the
    /// text (`<start_of_turn>`) are parsed as such.
    func tokenize(_ text: String, addSpecial: Bool) -> [llama_token]? {
        let utf8Count = text.utf8.count
        var tokens = [llama_token](repeating: 0, count: utf8Count + 8)
        var count = llama_tokenize(vocab, text, Int32(utf8Count), &tokens, Int32(tokens.count), addSpecial, true)
        if count < 0, count != Int32.min {
            tokens = [llama_token](repeating: 0, count: Int(-count))
            count = llama_tokenize(vocab, text, Int32(utf8Count), &tokens, Int32(tokens.count), addSpecial, true)
        }
        guard count >= 0 else { return nil }
        return Array(tokens.prefix(Int(count)))
    }

    /// The bytes a token stands for (not necessarily whole characters); special tokens render empty.
    func piece(of token: llama_token, into buffer: inout [CChar]) -> ArraySlice<CChar> {
        var count = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        if count < 0 {
            buffer = [CChar](repeating: 0, count: Int(-count))
            count = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        }
        return buffer.prefix(max(Int(count), 0))
    }

    /// The text of a token sequence as llama.cpp renders it at once (for checking streamed text).
    func detokenize(_ tokens: [llama_token]) -> String {
        var buffer = [CChar](repeating: 0, count: tokens.count * 16 + 16)
        var count = llama_detokenize(vocab, tokens, Int32(tokens.count), &buffer, Int32(buffer.count), false, false)
        if count < 0 {
            buffer = [CChar](repeating: 0, count: Int(-count))
            count = llama_detokenize(vocab, tokens, Int32(tokens.count), &buffer, Int32(buffer.count), false, false)
        }
        return String(decoding: buffer.prefix(max(Int(count), 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Returns the file size after checking the file exists, can be read and starts with "GGUF".
    private static func checkGGUFFile(at path: String) throws(LlamaError) -> Int {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let near = nearestPath(to: path) { try? FileManager.default.contentsOfDirectory(atPath: $0) }
            throw LlamaError(
                .modelNotFound,
                "model file \(path) does not exist; "
                    + (near.map { "did you mean \($0)?" }
                        ?? "pass the path of a .gguf file with --model (make run fetches the default model)"))
        }
        guard !isDirectory.boolValue else {
            let models = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".gguf") }.sorted()
            throw LlamaError(
                .modelNotFound,
                "\(path) is a folder, not a model file; "
                    + (models.isEmpty
                        ? "pass the path of a .gguf file with --model"
                        : "pass one of its .gguf files with --model: "
                            + "\(models.prefix(3).map { (path as NSString).appendingPathComponent($0) }.joined(separator: ", "))")
            )
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LlamaError(.modelUnreadable, "model file \(path) cannot be read; check its permissions")
        }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        guard magic == Data("GGUF".utf8) else {
            throw LlamaError(.notGGUF, "\(path) is not a GGUF model file (it does not start with \"GGUF\"); pass a .gguf file with --model")
        }
        return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }
}
