import ArgumentParser
import ChatEvalWorkspace

struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Bring the results index up to date with the result files and git notes (or rebuild it).",
        discussion: """
            The index (<reports>/.chateval/index.sqlite) only caches what the result files and the git notes hold; \
            `history` updates it by itself. --rebuild throws it away and reads everything again.

            Examples:
              chateval index
                  read new and changed result files and notes
              chateval index --rebuild
                  throw the index away and read everything again
            """)

    @Flag(help: "Start from an empty index.") var rebuild = false

    @OptionGroup var recorded: RecordedRunOptions

    @OptionGroup var project: ProjectOptions

    func run() throws {
        try RecordedRuns.refreshIndex(
            repo: recorded.repo, reportsFolder: recorded.reportsFolder, project: project.selection, rebuild: rebuild)
    }
}
