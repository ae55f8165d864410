import ChatEvalSuites
import Foundation

/// Where a command that replays suites works and with which settings, as its command line says:
/// the repository (found from `repo`, else the current folder), whether one is required, the
/// project file, and the command line's settings over it. Shared by `run`, `bisect` and `calibrate`.
package struct WorkspaceRequest: Sendable {
    package var repo: String?
    package var requireGit: Bool
    package var project: ProjectSelection
    /// The command line's settings (nil where not given), over the environment, the project file and defaults.
    package var overrides: RunConfiguration.Overrides

    package init(repo: String?, requireGit: Bool, project: ProjectSelection, overrides: RunConfiguration.Overrides) {
        self.repo = repo
        self.requireGit = requireGit
        self.project = project
        self.overrides = overrides
    }

    /// The workspace (see `Workspace.open`).
    package func open() throws -> Workspace {
        try Workspace.open(repo: repo, requireGit: requireGit, project: project)
    }

    /// The settings of a run of `projectFile` (the working tree's, a commit's, or nil for none)
    /// with the command line applied; its relative paths hang from the project file's folder in
    /// the working tree at `root`. A configuration error is bad input (exit 2).
    package func configuration(_ projectFile: ProjectFile?, root: URL) throws -> RunConfiguration {
        try RunConfiguration.resolveForCommand(overrides, project: projectFile, projectFolder: project.folder(root: root))
    }

    /// Where the project file lies in `tree`, relative to the repository root: the path the
    /// working tree's has (nil with --no-project, or outside the working tree).
    func projectPath(in tree: CommitTree) -> String? {
        project.ignore ? nil : tree.relativePath(project.path ?? tree.root.appendingPathComponent(ProjectFile.fileName).path)
    }
}
