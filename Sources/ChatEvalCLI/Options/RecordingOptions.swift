import ArgumentParser
import ChatEvalCore
import ChatEvalGit
import Foundation

/// Where results go and which commit they are recorded against.
struct RecordingOptions: ParsableArguments {
    @Option(name: .customLong("reports"), help: ArgumentHelp("Folder for result files.", valueName: "dir"))
    var reportsFolder: String = "reports"

    @Option(
        help: ArgumentHelp(
            "Repository whose commit the run is recorded against (default: found from the current folder upward).", valueName: "path"))
    var repo: String?

    @Flag(name: .customLong("require-git"), help: "Fail (exit 2) when no git repository is found, instead of recording no commit.")
    var requireGit = false

    @Flag(name: .customLong("git-note"), help: "Attach the run summary to the commit as a git note under refs/notes/chateval.")
    var gitNote = false

    /// The repository and its state, or nil (with a warning) outside one.
    func openRepository() throws -> (repository: GitRepository, snapshot: GitSnapshot)? {
        let start = URL(fileURLWithPath: repo ?? FileManager.default.currentDirectoryPath)
        do {
            let repository = try GitRepository.discover(startingAt: start)
            return (repository, try repository.snapshot())
        } catch let error as GitError where error.code == .notARepository && !requireGit && repo == nil {
            warn("\(start.path) is not inside a git repository; the run is recorded without a commit (--require-git makes this an error)")
            return nil
        } catch {
            throw failure("git: \(error)", .badInput)
        }
    }
}

func warn(_ message: String) {
    complain("chateval: warning: \(message)")
}
