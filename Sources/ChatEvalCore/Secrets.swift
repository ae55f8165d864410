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

    /// Remembers `value` as a secret for the rest of the process, with the forms it takes once
    /// encoded (`encodings(of:)`). Values shorter than 6 characters are not (they would redact
    /// ordinary words), nor empty ones.
    public static func register(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count >= 6 else { return }
        known.withLock { known in
            // Compared by bytes: String's == holds canonically equivalent spellings equal.
            for form in [trimmed] + encodings(of: trimmed)
            where form.count >= 6 && !known.contains(where: { $0.utf8.elementsEqual(form.utf8) }) {
                known.append(form)
            }
            // Longest first: a form inside a longer one (a base64 fragment in the whole) is replaced with it.
            known.sort { $0.count > $1.count }
        }
    }

    /// The forms a secret takes once encoded, each redacted as the secret is: its base64 (a
    /// `--base-url` password travels as `Authorization: Basic base64(user:password)`, and a server
    /// may echo the header), whole and as the part that survives at each of the three byte
    /// alignments inside longer base64 text; its percent-encoding; its JSON string escaping.
    /// Redacting the raw text first cannot reach a secret a server or a writer encoded.
    static func encodings(of value: String) -> [String] {
        let bytes = Array(value.utf8)
        var forms = [Data(bytes).base64EncodedString()]
        for shift in 0..<3 {
            // Base64 groups of 3 bytes lying wholly inside the secret when it starts `shift` bytes into a group.
            let encoded = Array(Data(Array(repeating: 0, count: shift) + bytes).base64EncodedString().utf8)
            let first = shift > 0 ? 4 : 0, end = (shift + bytes.count) / 3 * 4
            if end - first >= 8 { forms.append(String(decoding: encoded[first..<end], as: UTF8.self)) }
        }
        for allowed in [CharacterSet.urlPasswordAllowed, .urlQueryAllowed, .alphanumerics] {
            if let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) { forms.append(encoded) }
        }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        forms += [escaped, escaped.replacingOccurrences(of: "/", with: "\\/")]
        // Its composed and decomposed spellings: `redact` compares bytes, and an echo may be
        // normalised ("é" as one code point or as "e" and a combining accent).
        forms += [value.precomposedStringWithCanonicalMapping, value.decomposedStringWithCanonicalMapping]
        return forms.filter { !$0.utf8.elementsEqual(value.utf8) }
    }

    /// The strings of `value` that are credentials: every string under a field whose name is a
    /// credential's (`isSecretName`), at any depth — `{"auth": {"api_key": "…"}}`, `{"headers":
    /// {"Authorization": "Bearer …"}}`, or all of `{"credentials": ["…", "…"]}`. `named`: `value`
    /// itself is the value of such a field.
    public static func credentials(in value: JSONValue, named: Bool = false) -> [String] {
        switch value {
        case .string(let text): named ? [text] : []
        case .integer(let number): named ? [String(number)] : []
        case .array(let items): items.flatMap { credentials(in: $0, named: named) }
        case .object(let fields): fields.flatMap { credentials(in: $0.value, named: named || isSecretName($0.key)) }
        case .null, .bool, .number: []
        }
    }

    /// `value` with every credential (`credentials(in:)`) replaced by the placeholder.
    public static func redactingCredentials(in value: JSONValue, named: Bool = false) -> JSONValue {
        switch value {
        case .string, .integer, .number, .bool, .null: named ? .string(placeholder) : value
        case .array(let items): .array(items.map { redactingCredentials(in: $0, named: named) })
        case .object(let fields):
            .object(fields.reduce(into: [:]) { $0[$1.key] = redactingCredentials(in: $1.value, named: named || isSecretName($1.key)) })
        }
    }

    /// `text` with every registered secret replaced, longest first, wherever its bytes occur
    /// (`LiteralSearch`; the secret's other normal forms are registered with it). Foundation's
    /// `contains` and `replacingOccurrences` converted every text to UTF-16 on each call: with a
    /// key registered, the Markdown report of a 20,000-turn run spent most of its time here.
    public static func redact(_ text: String) -> String {
        let secrets = known.withLock { $0 }
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets { result = LiteralSearch.replacingOccurrences(in: result, of: secret, with: placeholder) }
        return result
    }

    /// True when no secret is registered: nothing is ever redacted.
    public static var isEmpty: Bool { known.withLock { $0.isEmpty } }

    /// The longest registered secret, in code points (0 when there is none): how far a secret
    /// cut by an excerpt's end can reach past it.
    public static var longestSecret: Int { known.withLock { $0.map(\.unicodeScalars.count).max() ?? 0 } }

    /// The code-point range `range` of `scalars` (offsets from its start) widened to hold whole
    /// every registered secret it overlaps: an excerpt cut there, then redacted, shows the
    /// placeholder where a secret straddled its ends, never the part of it that fell inside
    /// (an 80-character excerpt once wrote 28 of a 46-character key). `range` itself when no
    /// secret reaches it.
    public static func widenedToWholeSecrets(_ range: Range<Int>, of scalars: ArraySlice<Unicode.Scalar>) -> Range<Int> {
        let secrets = known.withLock { $0 }.map { Array($0.unicodeScalars) }
        guard !secrets.isEmpty else { return range }
        let base = scalars.startIndex
        var lower = range.lowerBound, upper = range.upperBound
        var widened = true
        while widened {
            widened = false
            for secret in secrets where !secret.isEmpty {
                var start = max(0, lower - secret.count + 1)
                while start < upper, start + secret.count <= scalars.count {
                    if scalars[(base + start)..<(base + start + secret.count)].elementsEqual(secret),
                        start < lower || start + secret.count > upper
                    {
                        lower = min(lower, start)
                        upper = max(upper, start + secret.count)
                        widened = true
                    }
                    start += 1
                }
            }
        }
        return lower..<upper
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
        if let json = redactJSON(argument) { return json }
        guard let equals = argument.firstIndex(of: "="), !argument[..<equals].contains("://") else { return redactURL(argument) }
        let name = String(argument[..<equals])
        let hidden = credentialOptions.contains(name.lowercased()) || (!name.hasPrefix("-") && isSecretName(name))
        return redact(name) + "=" + (hidden ? placeholder : redactArgument(String(argument[argument.index(after: equals)...])))
    }

    /// A JSON object or list (`--request-field 'auth={"api_key": "…"}'`'s value) with the
    /// credentials inside it replaced, written again as compact JSON; nil when `text` is not one
    /// or holds none.
    private static func redactJSON(_ text: String) -> String? {
        guard text.first == "{" || text.first == "[", let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
            !credentials(in: value).isEmpty
        else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(redactingCredentials(in: value))).map { redact(String(decoding: $0, as: UTF8.self)) } ?? placeholder
    }
}
