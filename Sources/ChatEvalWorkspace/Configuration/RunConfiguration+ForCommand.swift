import ChatEvalCore
import ChatEvalSuites
import Foundation

extension RunConfiguration {
    /// `resolve` for a command: a configuration error is bad input (exit 2), its warnings printed.
    static func resolveForCommand(_ overrides: Overrides, project: ProjectFile?, projectFolder: URL) throws -> RunConfiguration {
        do {
            return try resolve(overrides, project: project, projectFolder: projectFolder, warn: warn)
        } catch {
            throw failure(error.description, .badInput)
        }
    }
}
