import ChatEvalCore
import Foundation

/// A parsed base URL: where to send chat requests and where llama-server's own endpoints are.
public struct Endpoint: Sendable, Hashable {
    /// `http://host:port/v1` (no trailing slash).
    public let base: String
    /// The server's root (`base` without a final `/v1`), where llama-server serves `/props` and `/health`.
    public let root: String

    public init?(_ text: String) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.isEmpty { path = "/v1" }
        var rebuilt = components
        rebuilt.path = path
        rebuilt.query = nil
        rebuilt.fragment = nil
        guard let base = rebuilt.string else { return nil }
        self.base = base
        rebuilt.path = path.hasSuffix("/v1") ? String(path.dropLast(3)) : path
        root = rebuilt.string ?? base
    }

    public var chatCompletions: String { base + "/chat/completions" }
    public var models: String { base + "/models" }
    public var props: String { root + "/props" }
    public var health: String { root + "/health" }

    /// The URL as recorded: no user, password, query or fragment (where credentials hide).
    public var recorded: String { Self.redacted(base) }

    /// `text` without user information, query or fragment.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "(not a URL)" }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string ?? "(not a URL)"
    }
}
