import ChatEvalCore
import ChatEvalSuites
import ChatEvalWorkspace
import Foundation
import Testing

/// Settings resolved in order of precedence — command line, environment, project file, built-in
/// default — each with the source the record names, and failures typed with their exit status.
@Suite struct WorkspaceRequestTests {
    static let root = URL(fileURLWithPath: "/work/project")

    static func project(_ text: String) throws -> ProjectFile {
        try ProjectFile.parse(text, source: "/work/project/chateval.yaml", environment: [:])
    }

    @Test func theCommandLineBeatsTheEnvironmentWhichBeatsTheProjectFile() throws {
        let project = try Self.project("model: models/project.gguf\nrepetitions: 5\nwarmup: 2\n")
        let fromProject = try RunConfiguration.resolve(
            RunConfiguration.Overrides(), project: project, projectFolder: Self.root, environment: [:], warn: { _ in })
        #expect(fromProject.primary.modelPath == "/work/project/models/project.gguf", "relative to the project file's folder")
        #expect(fromProject.repetitions == 5 && fromProject.sources["repetitions"] == .projectFile)

        let fromEnvironment = try RunConfiguration.resolve(
            RunConfiguration.Overrides(), project: project, projectFolder: Self.root, environment: ["CHATEVAL_MODEL": "/m/env.gguf"],
            warn: { _ in })
        #expect(fromEnvironment.primary.modelPath == "/m/env.gguf" && fromEnvironment.sources["model"] == .environment)

        let fromCommandLine = try RunConfiguration.resolve(
            RunConfiguration.Overrides(models: ["/m/cli.gguf"], repetitions: 3), project: project, projectFolder: Self.root,
            environment: ["CHATEVAL_MODEL": "/m/env.gguf"], warn: { _ in })
        #expect(fromCommandLine.primary.modelPath == "/m/cli.gguf" && fromCommandLine.sources["model"] == .commandLine)
        #expect(fromCommandLine.repetitions == 3 && fromCommandLine.sources["repetitions"] == .commandLine)
        #expect(fromCommandLine.warmup == 2, "what the command line leaves out still comes from the project file")

        let builtIn = try RunConfiguration.resolve(
            RunConfiguration.Overrides(), project: nil, projectFolder: Self.root, environment: [:], warn: { _ in })
        #expect(builtIn.repetitions == 1 && builtIn.sources["repetitions"] == .builtIn)
        #expect(builtIn.suitePaths == ["suites"] && builtIn.reportsFolder == "reports")
    }

    /// Lists given once apply to every model; lists of another length are bad input naming the option.
    @Test func sideBySideListsPairUpOrAreRefused() throws {
        let two = try RunConfiguration.resolve(
            RunConfiguration.Overrides(models: ["/m/a.gguf", "/m/b.gguf"], contextSizes: [2048]), project: nil,
            projectFolder: Self.root, environment: [:], warn: { _ in })
        #expect(two.variants.map(\.label) == ["a", "b"] && two.variants.allSatisfy { $0.contextSize == 2048 })
        #expect(throws: RunConfiguration.ConfigurationError.self) {
            try RunConfiguration.resolve(
                RunConfiguration.Overrides(models: ["/m/a.gguf", "/m/b.gguf", "/m/c.gguf"], chatTemplates: ["gemma", "chatml"]),
                project: nil, projectFolder: Self.root, environment: [:], warn: { _ in })
        }
        do {
            _ = try WorkspaceRequest(
                repo: nil, requireGit: false, project: ProjectSelection(path: nil, ignore: true),
                overrides: RunConfiguration.Overrides(models: ["/m/a.gguf", "/m/b.gguf"], chatTemplates: ["a", "b", "c"])
            ).configuration(nil, root: Self.root)
            Issue.record("three templates for two models were accepted")
        } catch let failure as CommandFailure {
            #expect(failure.status == .badInput)
            #expect(failure.message.hasPrefix("--model is given 2 times, but 3 side-by-side variants are asked for"), "\(failure.message)")
        }
    }

    @Test func aFailureSaidWhereItHappenedIsNotSaidAgain() {
        let failure = CommandFailure("the html report could not be written", .runIncomplete)
        #expect(!failure.isSaid)
        #expect(failure.errorLine == "chateval: error: the html report could not be written")
        #expect(failure.sayNow().isSaid, "said once where it happened; the entry point then only exits")
        #expect(ChatEvalWorkspace.ExitStatus.baselineMissing.rawValue == 5)
    }
}
