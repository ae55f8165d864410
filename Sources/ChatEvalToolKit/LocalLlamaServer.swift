import Foundation

/// A llama-server of this machine, started for the length of a body (integration tests,
/// benchmarks): on 127.0.0.1 with a free port, its output in a log file, stopped by its process
/// id when the body returns or throws (SIGTERM, then SIGKILL after 5 s); its log is kept when
/// the body throws, for the message.
///
/// The default executable is `$CHATEVAL_LLAMA_SERVER`, which `make test` sets to the
/// llama-server that scripts/setup.sh builds from the same llama.cpp tree as the in-process runtime.
public enum LocalLlamaServer {
    public static var executable: String? {
        ProcessInfo.processInfo.environment["CHATEVAL_LLAMA_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A started server.
    public struct Running: Sendable {
        public var processIdentifier: Int32
        public var port: Int
        /// `http://127.0.0.1:PORT/v1`.
        public var baseURL: String { "http://127.0.0.1:\(port)/v1" }
        /// Where its output goes.
        public var log: URL
    }

    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts `llama-server -m MODEL --host 127.0.0.1 --port FREE ARGUMENTS`, runs `body`, stops it.
    public static func run<T: Sendable>(
        model: String, arguments: [String] = [], executable: String? = LocalLlamaServer.executable,
        body: (Running) async throws -> T
    ) async throws -> T {
        guard let executable else {
            throw Unavailable(
                description:
                    "CHATEVAL_LLAMA_SERVER is not set: run the tests with `make test`, "
                    + "which builds llama-server (scripts/setup.sh llama-server)"
            )
        }
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw Unavailable(description: "CHATEVAL_LLAMA_SERVER=\(executable) is not an executable file")
        }
        return try await serve(executable: executable, name: "llama-server", body: body) { port in
            ["-m", model, "--host", "127.0.0.1", "--port", String(port)] + arguments
        }
    }

    /// Runs `executable` with the arguments made for a free port, its output in a log named
    /// after `name`, for the length of `body`; the log is removed when `body` returns.
    static func serve<T: Sendable>(
        executable: String, name: String, body: (Running) async throws -> T, arguments: (Int) -> [String]
    ) async throws -> T {
        let port = try await freePort()
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(port)-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw Unavailable(description: "cannot create the server's log file \(log.path)")
        }
        let result = try await ProcessRunner.during(URL(fileURLWithPath: executable), arguments(port), log: log) { process in
            try await body(Running(processIdentifier: process.processIdentifier, port: port, log: log))
        }
        try? FileManager.default.removeItem(at: log)
        return result
    }

    /// A TCP port on 127.0.0.1 that nothing listens on now: the system's pick, bound and
    /// released at once (for a server about to start, or a test that needs a closed port).
    public static func freePort() async throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Unavailable(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "the system gave no port on 127.0.0.1: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The end of the server's log, for a failure message.
    public static func tail(of running: Running, lines: Int = 20) -> String {
        let text = (try? String(contentsOf: running.log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: "\n")
    }
}
