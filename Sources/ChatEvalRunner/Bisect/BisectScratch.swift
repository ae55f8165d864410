import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a bisection with `--serve` builds and serves its commits: one folder per range under
/// the reports folder (`.chateval/bisect-trees/GOOD..BAD/`), holding each commit's exported tree
/// and its logs. Trees and logs were never removed nor bounded: every probed commit's whole tree
/// (and its build) stayed for good. Now the bisection holds its folder's lock while it runs;
/// its trees are removed when it ends (`ServedRevisions.removeTrees`), those of a bisection that
/// was killed when the next one starts, and of the folders of bisections no longer running only
/// the newest `keptFolders` stay, for their logs. Each log is bounded (`BoundedLog`).
public final class BisectScratch: Sendable {
    /// The range's folder.
    public let folder: URL
    private let lock: Int32

    /// Folders of finished bisections kept for their logs (their trees are removed).
    public static let keptFolders = 5

    /// Claims `range`'s folder under `root` (emptied: what a bisection of the same range left is
    /// rebuilt anyway), and tidies the others. Throws when a bisection of the same range is
    /// running (it would share the trees and the journal).
    public init(root: URL, range: String) throws(ServedRevisionError) {
        folder = root.appendingPathComponent(range, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw ServedRevisionError(message: "cannot create the bisection's scratch folder \(folder.path): \(error)")
        }
        let descriptor = open(folder.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw ServedRevisionError(
                message: "another bisection of \(range) is running in \(folder.path) (it holds its trees and journal); "
                    + "wait for it, or stop it")
        }
        lock = descriptor
        Self.empty(folder, keeping: [".lock"])
        Self.tidy(root, except: range)
    }

    deinit { close(lock) }

    /// Removes what `folder` holds but the names in `keeping`.
    private static func empty(_ folder: URL, keeping: Set<String>) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !keeping.contains(name) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The other folders under `root`: those no bisection holds lose their trees, and all but the
    /// newest `keptFolders` of them go whole; anything else there (an earlier version's trees and
    /// logs, kept directly under `root`) is removed.
    private static func tidy(_ root: URL, except range: String) {
        var finished: [(url: URL, date: Date)] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] where name != range {
            let url = root.appendingPathComponent(name)
            guard name.contains(".."), (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true else {
                try? FileManager.default.removeItem(at: url)
                continue
            }
            // Its date before anything here touches it (the lock file, the trees removed).
            let date = (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? .distantPast
            let descriptor = open(url.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }  // a bisection running: not touched
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                let item = url.appendingPathComponent(entry)
                if (try? item.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
                    try? FileManager.default.removeItem(at: item)
                }
            }
            finished.append((url, date))
        }
        for old in finished.sorted(by: { $0.date > $1.date }).dropFirst(keptFolders) { try? FileManager.default.removeItem(at: old.url) }
    }
}
