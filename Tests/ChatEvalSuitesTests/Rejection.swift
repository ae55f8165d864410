import ChatEvalSuites
import Testing

/// The errors a suite text is rejected with; records an issue when it is accepted.
func rejection(_ yaml: String) -> [SuiteError] {
    do {
        _ = try SuiteLoader.parse(yaml, file: "t.yaml")
        Issue.record("expected the suite to be rejected")
        return []
    } catch {
        return error.errors
    }
}
