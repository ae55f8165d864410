import ArgumentParser
import ChatEvalWorkspace

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

    /// Where a command that replays suites works, with the project file `project` chooses and
    /// the command line's `overrides`.
    func workspace(_ project: ProjectOptions, _ overrides: RunConfiguration.Overrides) -> WorkspaceRequest {
        WorkspaceRequest(repo: repo, requireGit: requireGit, project: project.selection, overrides: overrides)
    }
}
