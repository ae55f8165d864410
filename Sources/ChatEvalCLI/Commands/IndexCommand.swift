import ArgumentParser
import ChatEvalWorkspace
import Foundation

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
        let (repository, root) = try RecordedRuns.openRepository(recorded.repo)
        let folder = try RecordedRuns.reportsFolder(recorded.reportsFolder, project: project.selection, root: root)
        let start = Date()
        let index = try RecordedRuns.updatedIndex(reports: folder, repository: repository, rebuild: rebuild, report: true)
        if index.readOnlyReason != nil {
            throw failure(
                "the index was not kept: \(folder.path) cannot be written to (`history` still works, reading everything)", .runIncomplete)
        }
        say("index     \(index.url.path) up to date in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
    }
}
