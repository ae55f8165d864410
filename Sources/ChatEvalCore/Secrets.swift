import Foundation
import Synchronization

/// Values that must never be written or printed (an API key read from the environment), and the
/// redaction of what looks like a credential in a URL or a command line.
///
/// A server may echo the key in an error body, which then travels into a turn's failure, the
/// result file, the git note, every report and the terminal. Rather than trusting each path,
/// every text ChatEvalstores or prints passes `redact` (result files, journals, notes, reports, standard
/// output and error): the key's value becomes `[redacted]` wherever it came from.
public enum Secrets {
    private static let known = Mutex<[String]>([])

    /// What stands in for a secret.
    public static let placeholder = "[redacted]"

    /// Remembers `value` as a secret for the rest of the process. Values shorter than 6
    /// characters are not (they would redact ordinary words), nor empty ones.
    public static func register(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 6 else { return }
        known.withLock { if !$0.contains(trimmed) { $0.append(trimmed) } }
    }

    /// `text` with every registered secret replaced.
    public static func redact(_ text: String) -> String {
        let secrets = known.withLock { $0 }
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets where result.contains(secret) { result = result.replacingOccurrences(of: secret, with: placeholder) }
        return result
    }

    /// `data` (UTF-8 text) with every registered secret replaced; the same bytes when there is none.
    public static func redact(_ data: Data) -> Data {
        let secrets = known.withLock { $0 }
        guard !secrets.isEmpty, secrets.contains(where: { data.range(of: Data($0.utf8)) != nil }) else { return data }
        return Data(redact(String(decoding: data, as: UTF8.self)).utf8)
    }

    /// Query parameters whose value is a credential by its name.
    static let secretParameters: Set<String> = [
        "key", "api_key", "apikey", "api-key", "token", "access_token", "auth", "password",
        "secret", "client_secret", "sig", "signature", "x-api-key",
    ]

    /// A URL with its password (userinfo) and credential-like query values replaced; other text unchanged.
    public static func redactURL(_ text: String) -> String {
        guard text.contains("://"), var components = URLComponents(string: text) else { return redact(text) }
        var changed = false
        if components.password != nil {
            components.password = placeholder
            changed = true
        }
        if let items = components.queryItems {
            components.queryItems = items.map { item in
                guard secretParameters.contains(item.name.lowercased()), item.value?.isEmpty == false else { return item }
                changed = true
                return URLQueryItem(name: item.name, value: placeholder)
            }
        }
        return redact(changed ? (components.string ?? text) : text)
    }

    /// A command line as a record keeps it: URLs redacted (`--base-url http://user:pass@host`),
    /// and the values of options that carry a credential.
    public static func redactCommand(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var hideNext = false
        for argument in arguments {
            if hideNext {
                result.append(placeholder)
                hideNext = false
                continue
            }
            let lowered = argument.lowercased()
            if ["--api-key", "--token", "--password"].contains(lowered) {
                result.append(argument)
                hideNext = true
                continue
            }
            if let equals = argument.firstIndex(of: "="), ["--api-key", "--token", "--password"].contains(String(lowered[..<equals])) {
                result.append(String(argument[...equals]) + placeholder)
                continue
            }
            // `--request-field NAME=VALUE` and `--base-url=URL`: redact a URL wherever it sits.
            if let equals = argument.firstIndex(of: "="), argument[argument.index(after: equals)...].contains("://") {
                result.append(String(argument[...equals]) + redactURL(String(argument[argument.index(after: equals)...])))
                continue
            }
            result.append(redactURL(argument))
        }
        return result
    }
}
