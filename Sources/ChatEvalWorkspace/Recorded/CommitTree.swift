import ChatEvalGit
import ChatEvalSuites
import Foundation

/// A commit's files, read through libgit2 (the working tree is not touched): the project file
/// and suites that determine the commit's run, for `run --baseline`.
package struct CommitTree {
    package let repository: GitRepository
    package let commit: String
    /// How messages name the commit (its short id).
    package let label: String
    /// The working tree root, which paths on disk are relative to.
    package let root: URL

    package init(repository: GitRepository, commit: String, label: String, root: URL) {
        self.repository = repository
        self.commit = commit
        self.label = label
        self.root = root
    }

    /// `path` (absolute, or relative to the current folder) relative to the repository root;
    /// nil when it lies outside the working tree.
    package func relativePath(_ path: String) -> String? {
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
        let rootPath = root.standardizedFileURL.path
        if absolute == rootPath { return "" }
        guard absolute.hasPrefix(rootPath + "/") else { return nil }
        return String(absolute.dropFirst(rootPath.count + 1))
    }

    /// The project file at `relativePath` in the commit, nil when the commit has none.
    package func projectFile(at relativePath: String) throws -> ProjectFile? {
        guard let data = try read(relativePath) else { return nil }
        let source = "\(label):\(relativePath)"
        guard let text = String(data: data, encoding: .utf8) else {
            throw failure("\(source): the project file is not UTF-8 text", .badInput)
        }
        do {
            return try ProjectFile.parse(text, source: source)
        } catch {
            complain(error.description)
            throw failure(
                "\(error.errors.count) problem(s) in the project file of \(label); fix it there or run with --no-project", .badInput)
        }
    }

    /// The suites at `paths` (files or folders, as on disk) in the commit; problems are printed
    /// together, then bad input. A path the commit does not have is skipped with a warning.
    package func suites(_ paths: [String], quiet: Bool = false) throws -> [Suite] {
        var loaded: [Result<Suite, SuiteErrors>] = []
        for path in paths {
            guard let relative = relativePath(path) else {
                throw failure("\(path) is outside the repository, so \(label)'s version of it cannot be read", .badInput)
            }
            let files: [String]
            if let names = try listing(relative) {
                files = names.filter(SuiteFiles.isSuiteName).map { relative.isEmpty ? $0 : "\(relative)/\($0)" }
            } else if try read(relative) != nil {
                files = [relative]
            } else {
                warn("\(label) has no \(relative); the baseline runs without it")
                continue
            }
            for file in files {
                let source = "\(label):\(file)"
                guard let data = try read(file), let text = String(data: data, encoding: .utf8) else {
                    loaded.append(.failure(SuiteErrors([SuiteError(.notText, file: source, "the file is not UTF-8 text")])))
                    continue
                }
                loaded.append(Result { () throws(SuiteErrors) in try SuiteLoader.parse(text, file: source) })
            }
        }
        guard !loaded.isEmpty else {
            throw failure("\(label) has none of the suites \(paths.joined(separator: ", ")); nothing to compare", .badInput)
        }
        return try SuiteFiles.collect(loaded, quiet: quiet)
    }

    private func read(_ path: String) throws -> Data? {
        do { return try repository.file(path, at: commit) } catch { throw failure("git: \(error)", .badInput) }
    }

    private func listing(_ path: String) throws -> [String]? {
        do { return try repository.files(inFolder: path, at: commit) } catch { throw failure("git: \(error)", .badInput) }
    }
}
