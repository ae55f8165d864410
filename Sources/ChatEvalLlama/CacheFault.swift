/// A fault in the session cache made on purpose, to show that `run --verify-cache` catches the
/// class of bug it is for (an answer that the cache changed, silently). Never set in a real run:
/// only tests and the `CHATEVAL_TEST_CACHE_FAULT` variable set one.
public enum CacheFault: String, Sendable, Hashable, CaseIterable {
    /// Trims a windowed sliding-window cache without llama-server's check that the window before
    /// the trim point is still held: the windowed layers then attend to entries that are gone.
    case skipWindowCheck = "skip-window-check"
    /// Drops the cache entries of every reused position but the first, in every turn that reuses
    /// more than 8, while counting them as reused: cached entries lost behind the accounting's back.
    /// (Dropping only half of them left SmolLM2's short answers unchanged.)
    case dropReusedEntries = "drop-reused-entries"

    /// The environment variable that sets a fault for a whole process (`chateval run`).
    public static let environmentVariable = "CHATEVAL_TEST_CACHE_FAULT"
}
