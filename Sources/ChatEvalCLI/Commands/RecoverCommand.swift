import ArgumentParser
import ChatEvalWorkspace

struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Turn a journal left by a run that died into a graded result file, marked incomplete.",
        discussion: """
            A run that was killed (SIGKILL, a crash, a full disk, a third Ctrl-C) leaves <name>.journal beside its \
            result file: every finished turn, and the run's settings and suites. This grades its turns as the run would \
            have and writes <name>.json. `chateval run` does it by itself for journals left in its reports folder. \
            A journal a running chateval holds is left alone.

            Examples:
              chateval recover reports/20261125T101500Z-7bfb935-n6y819bh.journal
              chateval recover reports/*.journal

            Exit codes: 0 every journal recovered, 2 one could not be (each is named with why).
            """)

    @Argument(help: ArgumentHelp("Journal files.", valueName: "journal")) var journals: [String]

    func run() throws {
        try Recovery.recoverAll(journals)
    }
}
