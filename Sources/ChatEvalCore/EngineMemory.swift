/// An in-process runtime's memory, recorded once per run. Resident figures are the process's
/// (Linux VmRSS/VmHWM); the engine's are what it reports allocating — reserved, not necessarily
/// touched, so they may exceed what is resident (weights mapped from the file count only as far
/// as they have been read).
public struct EngineMemory: Codable, Sendable, Hashable {
    /// Resident memory of the process just before the model was loaded: the harness itself
    /// (Swift and C libraries, suites, grading tables), without any model.
    public var residentBytesBeforeLoad: Int?
    /// Peak resident memory while the model was loaded, the context created and warmed up.
    public var loadPeakResidentBytes: Int?
    /// The engine's own report of its buffers: the weights, the KV cache, the compute buffers
    /// (scratch space of the evaluation graph) and the output buffer (logits).
    public var modelBytes: Int?
    public var kvCacheBytes: Int?
    public var computeBytes: Int?
    public var outputBytes: Int?
    /// How the turns' peaks (`TurnMetrics.peakResidentBytes` and its phases) were measured:
    /// `above_load_baseline` — above `residentBytesBeforeLoad`, the model's own memory whatever
    /// was loaded in the process before it (a run of several models loads them one after the
    /// other in one process). Absent in records written before it: the process's whole resident
    /// memory, which depends on what the process held before the model (`compare` then compares
    /// peak memory only between sides measured in the same process context).
    public var peakBasis: String?
    /// KV-cache bytes per cached position (all layers, keys and values), from the model's
    /// attention geometry: with `weightBytes`, what decoding one token reads (`roofline`).
    public var kvBytesPerPosition: Int?
    /// The model's tensors, each counted once (llama.cpp's `llama_model_size`): the weights one
    /// decoded token reads. Not `modelBytes`: where the CPU has a faster layout, llama.cpp keeps a
    /// repacked copy of most weights (an "AMX" or "CPU_REPACK" model buffer) beside the mapped
    /// file and reads only that copy, so the buffers together hold the weights about twice
    /// (SmolLM2 on an AMX Xeon: 95.34 MiB repacked beside 92.10 MiB mapped). Absent in records
    /// written before it, which then show no roofline.
    public var weightBytes: Int?

    /// `peakBasis` of peaks measured above the resident memory just before the model loaded.
    public static let aboveLoadBaseline = "above_load_baseline"

    public init(
        residentBytesBeforeLoad: Int? = nil, loadPeakResidentBytes: Int? = nil, modelBytes: Int? = nil,
        kvCacheBytes: Int? = nil, computeBytes: Int? = nil, outputBytes: Int? = nil
    ) {
        self.residentBytesBeforeLoad = residentBytesBeforeLoad
        self.loadPeakResidentBytes = loadPeakResidentBytes
        self.modelBytes = modelBytes
        self.kvCacheBytes = kvCacheBytes
        self.computeBytes = computeBytes
        self.outputBytes = outputBytes
    }

    /// What decoding one token reads, when both figures are known.
    public var roofline: DecodeRoofline? {
        guard let weightBytes, let kvBytesPerPosition else { return nil }
        return DecodeRoofline(weightBytes: weightBytes, kvBytesPerPosition: kvBytesPerPosition)
    }

    /// The engine's buffers together, when it reported them all.
    public var engineBytes: Int? {
        guard let modelBytes, let kvCacheBytes, let computeBytes else { return nil }
        return modelBytes + kvCacheBytes + computeBytes + (outputBytes ?? 0)
    }
}
