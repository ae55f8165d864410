import ArgumentParser

/// Where recorded runs are looked up (`compare`, `report`): the results folder and the repository
/// revisions resolve in.
struct RecordedRunOptions: ParsableArguments {
    @Option(
        name: .customLong("reports"),
        help: ArgumentHelp("Folder of result files to look revisions up in (default: the project file's, else reports).", valueName: "dir"))
    var reportsFolder: String?

    @Option(help: ArgumentHelp("Repository to resolve revisions in (default: found from the current folder upward).", valueName: "path"))
    var repo: String?
}
