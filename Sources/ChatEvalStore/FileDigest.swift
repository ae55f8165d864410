import ChatEvalDigest
import Foundation

/// SHA-256 of files, remembered in a small cache keyed by path, size and modification time, so a
/// 250 MB model is hashed once, not on every run.
public struct FileDigest: Sendable {
    /// Where digests are remembered (a JSON object); nil to always hash.
    public let cacheURL: URL?

    public init(cacheURL: URL?) {
        self.cacheURL = cacheURL
    }

    /// The hex SHA-256 of `data`.
    public static func sha256(of data: Data) -> String {
        SHA256Digest.hex(data)
    }

    /// The hex SHA-256 of the file at `path`.
    public func sha256(ofFileAt path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let size = attributes[.size] as? Int ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let key = "\(URL(fileURLWithPath: path).standardizedFileURL.path)|\(size)|\(modified)"
        var cache = loadCache()
        if let known = cache[key] { return known }

        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        let hasher = SHA256Digest()
        while let chunk = try handle.read(upToCount: 4 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        let digest = hasher.hex()

        cache[key] = digest
        saveCache(cache)
        return digest
    }

    private func loadCache() -> [String: String] {
        guard let cacheURL, let data = try? Data(contentsOf: cacheURL) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }

    private func saveCache(_ cache: [String: String]) {
        guard let cacheURL, let data = try? JSONEncoder().encode(cache) else { return }
        try? FileManager.default.createDirectory(at: cacheURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: cacheURL, options: .atomic)
    }
}
