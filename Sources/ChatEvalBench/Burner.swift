import ArgumentParser
import ChatEvalCompare
import ChatEvalCore
import ChatEvalLlama
import ChatEvalReport
import ChatEvalRunner
import ChatEvalRuntime
import ChatEvalStore
import ChatEvalSuites
import ChatEvalToolKit
import Foundation

/// A command run over and over in the background (a compile beside the runs) for the length of a body.
enum Burner {
    /// Runs `body` with `command` looping beside it (just `body` when `command` is empty); the loop
    /// and whatever it runs are killed when `body` ends, and by a watcher if the bench dies first.
    static func running(_ command: String, body: () async throws -> Void) async throws {
        guard !command.isEmpty else { return try await body() }
        // Its own process group (setsid execs in place: the pid leads the group), so that stopping
        // it stops whatever the loop is running too. The watcher kills the group when the bench is
        // gone, however it ended (a kill included), and the loop stops starting the command then.
        let bench = getpid()
        let loop =
            "(while kill -0 \(bench) 2>/dev/null; do sleep 1; done; kill -KILL -- -$$) & "
            + "while kill -0 \(bench) 2>/dev/null; do \(command); done"
        try await ProcessRunner.during(
            URL(fileURLWithPath: "/usr/bin/setsid"), ["/bin/bash", "-c", loop],
            log: URL(fileURLWithPath: "/dev/null")
        ) { process in
            // SIGKILL to the group: a shell waiting on its command may outlive SIGTERM, and a
            // compile has nothing to save.
            defer { kill(-process.processIdentifier, SIGKILL) }
            try await Task.sleep(for: .seconds(5))
            print("   the load beside the runs: \(MachineLoad.sample(over: 1).summary)")
            try await body()
        }
    }
}
