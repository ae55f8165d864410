import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Where a command works: the repository (if any) and its state, the folder the project file
/// and relative paths hang from, and the project file.
package struct Workspace {
    package var repository: GitRepository?
    package var snapshot: GitSnapshot?
    /// The working tree's root inside a repository, else the current folder.
    package var root: URL
    package var project: ProjectFile?

    /// The workspace of the repository found from `repo` (else the current folder) upward, and its
    /// project file. Outside a repository the run is recorded without a commit (a warning), unless
    /// `requireGit` or `repo` ask for one (bad input).
    package static func open(repo: String?, requireGit: Bool, project: ProjectSelection) throws -> Workspace {
        let start = URL(fileURLWithPath: repo ?? FileManager.default.currentDirectoryPath)
        var git: (repository: GitRepository, snapshot: GitSnapshot)?
        do {
            let repository = try GitRepository.discover(startingAt: start)
            git = (repository, try repository.snapshot())
        } catch let error as GitError where error.code == .notARepository && !requireGit && repo == nil {
            warn("\(start.path) is not inside a git repository; the run is recorded without a commit (--require-git makes this an error)")
        } catch {
            throw failure("git: \(error)", .badInput)
        }
        let root =
            git?.repository.workdir.map { URL(fileURLWithPath: $0) } ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return Workspace(repository: git?.repository, snapshot: git?.snapshot, root: root, project: try project.load(root: root))
    }

    /// The root of the working tree `folder` lies in, else `folder` itself (outside a repository).
    package static func root(containing folder: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) -> URL {
        (try? GitRepository.discover(startingAt: folder))?.workdir.map { URL(fileURLWithPath: $0) } ?? folder
    }

    /// Digests of model files, remembered in the cache by path, size and time.
    package static let digests = FileDigest(cacheURL: URL(fileURLWithPath: LocalSetup.cacheFolder).appendingPathComponent("digests.json"))

    /// Loads a variant's model after checking the digest the project file requires.
    /// A wrong or missing model is bad input (exit 2).
    static func loadRuntime(_ configuration: RunConfiguration, _ variant: RunConfiguration.ModelVariant) throws -> (
        runtime: LlamaChatRuntime, sha256: String?
    ) {
        let sha256 = try? digests.sha256(ofFileAt: variant.modelPath)
        if let expected = variant.expectedSha256, FileManager.default.fileExists(atPath: variant.modelPath), sha256 != expected {
            throw failure(
                "the model \(variant.modelPath) has sha256 \(sha256 ?? "unreadable"), "
                    + "but \(configuration.project?.source ?? "the project file") "
                    + "requires \(expected); fetch the right file (make run does for the default model) or update model.sha256", .badInput)
        }
        do {
            let engine = try LlamaChatRuntime(configuration.runtimeConfiguration(variant))
            EngineHold.keep(engine)
            return (engine, sha256)
        } catch {
            throw failure(error.description, exitStatus(of: error))
        }
    }

    /// Every in-process model of `configuration` checked before any runs — the file, its GGUF
    /// header and vocabulary, its chat template — without loading weights, so that the second of
    /// two models is refused before the first has run for a minute.
    static func checkModels(_ configuration: RunConfiguration) throws {
        for variant in configuration.variants {
            do {
                try LlamaChatRuntime.check(configuration.runtimeConfiguration(variant))
            } catch {
                throw failure("model \(variant.label): \(error.description); nothing was run", exitStatus(of: error))
            }
        }
    }

    /// A model or engine that cannot be used is bad input (2), an engine built for another CPU 6,
    /// a failed evaluation an incomplete run (3).
    static func exitStatus(of error: LlamaError) -> ExitStatus {
        switch error.code {
        case .decodeFailed: .runIncomplete
        case .engineBuiltForAnotherCPU: .engineCannotRun
        default: .badInput
        }
    }

    /// The project file as a run records it.
    package static func record(of project: ProjectFile?) -> ProjectFileRecord? {
        project.map { ProjectFileRecord(path: $0.source, sha256: FileDigest.sha256(of: Data($0.text.utf8))) }
    }
}
