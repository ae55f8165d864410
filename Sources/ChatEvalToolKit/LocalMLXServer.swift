import Foundation

/// mlx-lm's `mlx_lm.server` on this machine, started for the length of a body (integration
/// tests, the three-runtime table) as `LocalLlamaServer` starts llama-server: on 127.0.0.1 with a
/// free port, with the model hub turned off (`HF_HUB_OFFLINE=1`: the model is a local folder),
/// stopped by its process id when the body returns or throws.
///
/// `make test` sets `$CHATEVAL_MLX_PYTHON` to the Python of the MLX environment scripts/setup.sh
/// builds (pinned mlx, mlx-cpu, mlx-lm) and `$CHATEVAL_MLX_MODEL` to the default chat model
/// converted for it from the shipped GGUF (scripts/mlx-model.py).
public enum LocalMLXServer {
    public static var python: String? { environment("CHATEVAL_MLX_PYTHON") }
    public static var model: String? { environment("CHATEVAL_MLX_MODEL") }

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Starts `python -m mlx_lm.server --model MODEL --host 127.0.0.1 --port FREE ARGUMENTS`
    /// (through `env`, which sets `HF_HUB_OFFLINE=1` and execs it: the process id is the
    /// server's), runs `body`, stops it.
    public static func run<T: Sendable>(
        model: String? = LocalMLXServer.model, arguments: [String] = [], python: String? = LocalMLXServer.python,
        body: (LocalLlamaServer.Running) async throws -> T
    ) async throws -> T {
        guard let python, let model else {
            throw LocalLlamaServer.Unavailable(
                description:
                    "CHATEVAL_MLX_PYTHON or CHATEVAL_MLX_MODEL is not set: run the tests with `make test`, "
                    + "which sets up MLX and converts the chat model (scripts/setup.sh mlx)")
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw LocalLlamaServer.Unavailable(description: "CHATEVAL_MLX_PYTHON=\(python) is not an executable file")
        }
        guard FileManager.default.fileExists(atPath: model + "/config.json") else {
            throw LocalLlamaServer.Unavailable(description: "CHATEVAL_MLX_MODEL=\(model) is not an mlx-lm model folder (no config.json)")
        }
        return try await LocalLlamaServer.serve(executable: "/usr/bin/env", name: "mlx-lm-server", body: body) { port in
            ["HF_HUB_OFFLINE=1", python, "-m", "mlx_lm.server", "--model", model, "--host", "127.0.0.1", "--port", String(port)]
                + arguments
        }
    }
}
