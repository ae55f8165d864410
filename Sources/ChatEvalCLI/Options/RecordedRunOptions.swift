import ArgumentParser

/// Where recorded runs are found (`compare`, `report`, `history`, `index`): the folder of result
/// files and the repository whose revisions and notes are read.
struct RecordedRunOptions: ParsableArguments {
    @Option(
        name: .customLong("reports"),
        help: ArgumentHelp("Folder of result files (default: the project file's, else reports).", valueName: "dir"))
    var reportsFolder: String?

    @Option(
        help: ArgumentHelp(
            "Repository whose revisions and notes are read (default: found from the current folder upward).", valueName: "path"))
    var repo: String?
}
