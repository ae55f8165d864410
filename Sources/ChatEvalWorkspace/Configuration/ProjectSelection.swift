import ChatEvalSuites
import Foundation

/// Which project file applies: `chateval.yaml` at the repository root (or in the current folder
/// outside a repository) unless another is named (`path`) or none is wanted (`ignore`).
package struct ProjectSelection: Sendable {
    package var path: String?
    package var ignore: Bool

    package init(path: String?, ignore: Bool) {
        self.path = path
        self.ignore = ignore
    }

    /// The project file, or nil; a malformed one is bad input (every problem printed, exit 2).
    package func load(root: URL) throws -> ProjectFile? {
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

    /// The folder the project file's relative paths hang from: the named file's, else `root`.
    package func folder(root: URL) -> URL {
        path.map { URL(fileURLWithPath: $0).deletingLastPathComponent() } ?? root
    }
}
