/// Suites ChatEval carries within itself rather than reads from a file.
public enum BuiltInSuite {
    /// The path result files give the built-in chat benchmark (run when no suite is in sight):
    /// not a file on disk.
    public static let chatBenchmarkPath = "built-in:chat-benchmark"
}
