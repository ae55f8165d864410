import ArgumentParser
import ChatEvalWorkspace

/// Which project file applies: `chateval.yaml` at the repository root (or in the current folder
/// outside a repository) unless another is named or none is wanted.
struct ProjectOptions: ParsableArguments {
    @Option(
        name: .customLong("project"),
        help: ArgumentHelp("Project file (default: chateval.yaml at the repository root, if there is one).", valueName: "file"))
    var path: String?

    @Flag(name: .customLong("no-project"), help: "Ignore the project file: only the command line and built-in defaults apply.")
    var ignore = false

    func validate() throws {
        if ignore && path != nil { throw ValidationError("--project and --no-project exclude each other") }
    }

    /// The project file these options choose (loaded by the workspace).
    var selection: ProjectSelection { ProjectSelection(path: path, ignore: ignore) }
}
