internal import CLlama
import Foundation
import Synchronization

/// Captures llama.cpp's log instead of letting it print to stderr, keeping the recent lines so
/// that an error can quote llama.cpp's own explanation. Set `CHATEVAL_LLAMA_LOG=1` to also
/// echo everything to stderr.
enum LlamaLog {
    private struct State {
        var partialLine = ""
        var recent: [String] = []
        /// Lines received since start; `recent` holds the last of them.
        var total = 0
        /// Every line reporting a buffer's size (a handful per model), with its line number:
        /// kept apart, since a model load logs thousands of lines before the last of them.
        var bufferReports: [(number: Int, line: String)] = []
    }

    private static let state = Mutex(State())
    private static let maximumLines = 200
    nonisolated(unsafe) private static var echo = false

    /// Routes llama.cpp's log here; idempotent. Must run before the first llama.cpp call that logs.
    static func install() {
        echo = ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_LOG"].map { !$0.isEmpty && $0 != "0" } ?? false
        llama_log_set(
            { level, text, _ in
                guard let text else { return }
                LlamaLog.receive(level: level, text: String(cString: text))
            }, nil)
    }

    private static func receive(level: ggml_log_level, text: String) {
        if echo { FileHandle.standardError.write(Data(text.utf8)) }
        state.withLock { state in
            state.partialLine += text
            while let newline = state.partialLine.firstIndex(of: "\n") {
                let line = String(state.partialLine[..<newline]).trimmingCharacters(in: .whitespaces)
                state.partialLine.removeSubrange(...newline)
                guard !line.isEmpty, line != "." else { continue }
                state.recent.append(line)
                state.total += 1
                if line.contains(" buffer size = ") || line.contains(" cells, ") { state.bufferReports.append((state.total, line)) }
                if state.recent.count > maximumLines { state.recent.removeFirst(state.recent.count - maximumLines) }
            }
        }
    }

    /// A marker for "now"; `lines(since:)` returns what was logged after it.
    static func mark() -> Int { state.withLock { $0.total } }

    /// The buffer-size and KV-cache-size lines logged since `mark`, in order.
    static func bufferReports(since mark: Int) -> [String] {
        state.withLock { state in state.bufferReports.filter { $0.number > mark }.map(\.line) }
    }

    /// The last `limit` lines logged since `mark`, most recent last.
    static func lines(since mark: Int, limit: Int = 4) -> [String] {
        state.withLock { state in
            let new = min(max(state.total - mark, 0), state.recent.count)
            return Array(state.recent.suffix(new).suffix(limit))
        }
    }
}
