import ChatEvalCore

/// Where a setting's value came from, in order of precedence.
public enum SettingSource: String, Codable, Sendable, Hashable {
    /// An option on the command line.
    case commandLine = "command_line"
    /// An environment variable (`CHATEVAL_MODEL`).
    case environment
    /// The project file committed with the suites (`chateval.yaml`).
    case projectFile = "project_file"
    /// ChatEval's built-in default.
    case builtIn = "default"
}

extension SettingSource {
    /// The value a setting takes from the first place that sets it — the command line, then the
    /// environment, then the project file — with that place; nil when none does.
    public static func first<T>(commandLine: T?, environment: T?, projectFile: T?) -> (value: T, source: SettingSource)? {
        if let commandLine { return (commandLine, .commandLine) }
        if let environment { return (environment, .environment) }
        if let projectFile { return (projectFile, .projectFile) }
        return nil
    }
}
