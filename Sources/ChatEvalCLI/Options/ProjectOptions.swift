import ArgumentParser
import ChatEvalSuites
import Foundation

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

    /// The project file, or nil; a malformed one is bad input (every problem printed, exit 2).
    func load(root: URL) throws -> ProjectFile? {
        guard !ignore else { return nil }
        let file = path ?? root.appendingPathComponent(ProjectFile.fileName).path
        do {
            guard let project = try ProjectFile.load(path: file) else {
                if path != nil { throw failure("\(file): no such project file", .badInput) }
                return nil
            }
            return project
        } catch let errors as SuiteErrors {
            complain(errors.description)
            throw failure("\(errors.errors.count) problem(s) in the project file \(file); nothing was run", .badInput)
        }
    }
}
