internal import CLlama

/// A persistent CPU threadpool for a context, created the way llama-bench creates its own.
///
/// Without one, ggml's CPU backend starts a disposable threadpool for every graph evaluation,
/// which costs a noticeable share of each decoded token on a small model. `poll` (0–100) is how
/// long idle workers spin before sleeping; 50 is llama-bench's default. The functions live in the
/// CPU backend library, which is reached through the backend registry (as llama-bench does), not
/// linked directly. Owns its `ggml_threadpool *` (freed in deinit, after the context using it).
final class LlamaThreadpool {
    private typealias New = @convention(c) (UnsafeMutablePointer<ggml_threadpool_params>?) -> OpaquePointer?
    private typealias Free = @convention(c) (OpaquePointer?) -> Void

    let pointer: OpaquePointer
    private let free: Free

    static let defaultPoll: UInt32 = 50

    /// nil when the CPU backend does not offer threadpools (the context then uses its default).
    init?(threads: Int, poll: UInt32 = LlamaThreadpool.defaultPoll) {
        guard let device = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU),
            let registry = ggml_backend_dev_backend_reg(device),
            let newAddress = ggml_backend_reg_get_proc_address(registry, "ggml_threadpool_new"),
            let freeAddress = ggml_backend_reg_get_proc_address(registry, "ggml_threadpool_free")
        else { return nil }
        let create = unsafeBitCast(newAddress, to: New.self)
        free = unsafeBitCast(freeAddress, to: Free.self)
        var parameters = ggml_threadpool_params_default(Int32(threads))
        parameters.poll = poll
        guard let pointer = create(&parameters) else { return nil }
        self.pointer = pointer
    }

    deinit { free(pointer) }
}
