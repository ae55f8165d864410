import Foundation
import Synchronization

/// Values that must never be written or printed (an API key read from the environment), and the
/// redaction of what looks like a credential in a URL or a command line.
///
/// A server may echo the key in an error body, which then travels into a turn's failure, the
/// result file, the git note, every report and the terminal. Rather than trusting each path,
/// every text ChatEval stores or prints passes `redact` (result files, journals, notes, reports,
/// standard output and error): the key's value becomes `[redacted]` wherever it came from.
///
/// Redaction comes first: on the raw text, before any cut, escape or excerpt. A key cut in two
/// (a 300-character excerpt of an error body) or escaped (`hf\_…` in Markdown) no longer matches
/// and would be written nearly whole, so every function that cuts or escapes text for a record
/// or a report redacts its input first (`RuntimeFailure`, the served runtime's excerpts,
/// `Markup`, `Format.clip`), and the writers redact once more what they write.
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

    /// Whether a field, parameter or option name names a credential: one of its words (split at
    /// punctuation and at lower-to-upper case changes) is key, token, password, secret, auth,
    /// signature or the like — `api_key`, `apiKey`, `x-api-key`, `access_token`, `client_secret`,
    /// `Authorization`; not `max_tokens` or `n_keep`.
    public static func isSecretName(_ name: String) -> Bool {
        var words: [String] = []
        var word = ""
        var previousIsLower = false
        for character in name {
            guard character.isLetter || character.isNumber else {
                words.append(word)
                word = ""
                previousIsLower = false
                continue
            }
            if character.isUppercase && previousIsLower {
                words.append(word)
                word = ""
            }
            word += character.lowercased()
            previousIsLower = character.isLowercase
        }
        words.append(word)
        return words.contains(where: secretWords.contains)
    }

    /// The words that make a name a credential's (`isSecretName`).
    private static let secretWords: Set<String> = [
        "key", "apikey", "token", "accesstoken", "password", "passwd", "secret", "auth", "authorization", "credential",
        "credentials", "sig", "signature",
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
                guard isSecretName(item.name), item.value?.isEmpty == false else { return item }
                changed = true
                return URLQueryItem(name: item.name, value: placeholder)
            }
        }
        return redact(changed ? (components.string ?? text) : text)
    }

    /// Options whose value is a credential, given as the next argument or after `=`.
    private static let credentialOptions: Set<String> = ["--api-key", "--token", "--password"]

    /// A command line as a record keeps it: URLs redacted (`--base-url http://user:pass@host`),
    /// and the values of options that carry a credential (`--token=…`) and of `NAME=VALUE`
    /// arguments whose name is a credential's (`--request-field api_key=…`,
    /// `--request-field=password=…`).
    public static func redactCommand(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var hideNext = false
        for argument in arguments {
            result.append(hideNext ? placeholder : redactArgument(argument))
            hideNext = !hideNext && credentialOptions.contains(argument.lowercased())
        }
        return result
    }

    /// One argument of `redactCommand`: a URL, or `NAME=VALUE` with the value hidden when the name
    /// is a credential option or a credential's field, else redacted in turn (it may be a URL or
    /// another `NAME=VALUE`).
    private static func redactArgument(_ argument: String) -> String {
        guard let equals = argument.firstIndex(of: "="), !argument[..<equals].contains("://") else { return redactURL(argument) }
        let name = String(argument[..<equals])
        let hidden = credentialOptions.contains(name.lowercased()) || (!name.hasPrefix("-") && isSecretName(name))
        return redact(name) + "=" + (hidden ? placeholder : redactArgument(String(argument[argument.index(after: equals)...])))
    }
}
