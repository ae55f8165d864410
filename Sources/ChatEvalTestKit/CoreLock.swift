import Testing

/// A first-come, first-served lock across the whole test process.
actor CoreLock {
    static let shared = CoreLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()  // handed over: `held` stays true
        }
    }
}
