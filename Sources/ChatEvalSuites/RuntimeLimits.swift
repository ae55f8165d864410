import ChatEvalCore
internal import Yams

/// Bounds on runtime settings, wherever they are given (command line, project file): within
/// what llama.cpp's 32-bit parameters hold and what a machine can run.
public enum RuntimeLimits {
    public static let contextSize = 16...(1 << 22)
    /// Threads beyond this are refused outright; the command line further bounds them by the cores available.
    public static let maximumThreads = 1024
}
