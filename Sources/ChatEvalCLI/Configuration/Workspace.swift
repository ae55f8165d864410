import ChatEvalCore
import ChatEvalGit
import ChatEvalLlama
import ChatEvalStore
import ChatEvalSuites
import Foundation

/// Where a command works: the repository (if any) and its state, the folder the project file
/// and relative paths hang from, and the project file.
struct Workspace {
    var repository: GitRepository?
    var snapshot: GitSnapshot?
    /// The working tree's root inside a repository, else the current folder.
    var root: URL
    var project: ProjectFile?

    static func open(recording: RecordingOptions, project: ProjectOptions) throws -> Workspace {
        let git = try recording.openRepository()
        let root =
            git?.repository.workdir.map { URL(fileURLWithPath: $0) } ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return Workspace(repository: git?.repository, snapshot: git?.snapshot, root: root, project: try project.load(root: root))
    }

    /// Digests of model files, remembered in the cache by path, size and time.
    static let digests = FileDigest(cacheURL: URL(fileURLWithPath: RuntimeOptions.cacheFolder).appendingPathComponent("digests.json"))

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
            return (try LlamaChatRuntime(configuration.runtimeConfiguration(variant)), sha256)
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
    static func record(of project: ProjectFile?) -> ProjectFileRecord? {
        project.map { ProjectFileRecord(path: $0.source, sha256: FileDigest.sha256(of: Data($0.text.utf8))) }
    }
}
