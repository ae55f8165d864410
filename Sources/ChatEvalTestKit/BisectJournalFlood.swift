import Foundation

/// A bisection's journal of the right shape (version 2, fingerprint "question") whose kept single
/// runs list `paths` result paths, about 270 bytes each: the issue-43 case of a journal listing
/// 200 MB of paths (750,000 of them), and one just under the 8 MiB bound (30,000).
public enum BisectJournalFlood {
    /// Writes it to `url` (replaced), 10,000 lines at a time.
    public static func write(paths: Int, to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        handle.write(Data("{\"version\": 2, \"fingerprint\": \"question\", \"probes\": [], \"unmeasurable\": {}, \"singleRuns\": {\n".utf8))
        let folder = "/reports/" + String(repeating: "r", count: 200)
        for start in stride(from: 0, to: paths, by: 10_000) {
            let lines = (start..<min(paths, start + 10_000)).map { index in
                let commit = String(repeating: "0", count: 40 - String(index).count) + String(index)
                return "\"\(commit)\": \"\(folder)-\(index).json\"" + (index == paths - 1 ? "\n" : ",\n")
            }
            handle.write(Data(lines.joined().utf8))
        }
        handle.write(Data("}}\n".utf8))
    }
}
