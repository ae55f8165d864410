import ChatEvalCore

/// Templating (`{{turn1.answer}}`…) happens before checks are built; these helpers let a
/// validator that runs before templating skip what it cannot judge yet.
public enum Placeholders {
    /// True when `text` still contains a `{{…}}` placeholder (or an unterminated `{{`), with
    /// the same syntax as ChatEvalCore's `TemplateText`.
    public static func containsUnresolved(_ text: String) -> Bool {
        guard text.contains("{{") else { return false }
        guard let template = try? TemplateText(text) else { return true }
        return !template.placeholders.isEmpty
    }
}
