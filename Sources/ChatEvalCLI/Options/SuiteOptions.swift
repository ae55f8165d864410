import ArgumentParser
import ChatEvalSuites

/// Which suites to use: files, or folders whose `*.yaml` files are taken in name order
/// (default: the project file's `suites`, else `suites`).
struct SuiteOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Suite files or folders of suites (default: the project file's, else suites/); suite.yaml#id,id picks conversations.",
            valueName: "suite"))
    var paths: [String] = []

    /// The paths given (without `#ids`), or nil when none were (so the project file or the default applies).
    var given: [String]? { paths.isEmpty ? nil : paths.map { SuiteSelection.splitPath($0).path } }

    /// Conversation ids picked after `#` in the paths given.
    var conversationsByPath: [String: [String]] {
        var picked: [String: [String]] = [:]
        for (path, ids) in paths.map({ SuiteSelection.splitPath($0) }) where !ids.isEmpty { picked[path, default: []] += ids }
        return picked
    }
}
