import ChatEvalCore
import ChatEvalGit
import ChatEvalHistory
import ChatEvalIndex
import ChatEvalReport
import ChatEvalStore
import Foundation

/// What `history` and `index` share: the repository, the reports folder, the index brought up to date.
package enum RecordedRuns {
    package static func openRepository(_ path: String?) throws -> (GitRepository, URL) {
        let start = URL(fileURLWithPath: path ?? FileManager.default.currentDirectoryPath)
        do {
            let repository = try GitRepository.discover(startingAt: start)
            return (repository, repository.workdir.map { URL(fileURLWithPath: $0) } ?? start)
        } catch {
            throw failure("git: \(error)", .badInput)
        }
    }

    /// `--reports`, else the project file's `reports`, else `reports` (relative to the current folder, as `compare` takes it).
    package static func reportsFolder(_ option: String?, project: ProjectSelection, root: URL) throws -> URL {
        let projectFile = try project.load(root: root)
        let path = option ?? projectFile?.reports.map { $0.hasPrefix("/") ? $0 : root.appendingPathComponent($0).path } ?? "reports"
        return URL(fileURLWithPath: path)
    }

    /// The index of `reports`, updated from its result files and the repository's notes; problems
    /// with single sources are warnings (once per change), a broken index is bad input.
    static func updatedIndex(reports: URL, repository: GitRepository, rebuild: Bool, report: Bool = false) throws
        -> SQLiteResultIndex
    {
        do {
            return try updatedIndexOnce(reports: reports, repository: repository, rebuild: rebuild, report: report)
        } catch let error as IndexError where !rebuild {
            // Damage found only while reading or writing it (a page, a table): rebuild once, say so once.
            warn(
                "the results index was damaged (\(error.pointOfFailure): \(error.message)); rebuilt it from the result files and git notes")
            do {
                return try updatedIndexOnce(reports: reports, repository: repository, rebuild: true, report: report)
            } catch let error as IndexError {
                throw failure(error.description, .runIncomplete)
            }
        }
    }

    private static func updatedIndexOnce(reports: URL, repository: GitRepository, rebuild: Bool, report: Bool) throws -> SQLiteResultIndex {
        do {
            let index = try SQLiteResultIndex(url: SQLiteResultIndex.defaultURL(reports: reports), rebuild: rebuild)
            if let reason = index.readOnlyReason {
                warn(
                    "\(reason): the results index cannot be kept there, so it is built in memory from the result files and git notes "
                        + "for this command and nothing is written (slower on a large history; make the folder writable to keep it)")
            }
            if index.wasRebuilt && !rebuild {
                warn(
                    index.damage.map { "the results index was damaged (\($0)); rebuilt it from the result files and git notes" }
                        ?? "the results index \(index.url.path) was of another version; rebuilt it from the result files and git notes")
            }
            let files = try index.update(folder: reports)
            let listing: NoteListing
            do {
                listing = try repository.noteListing()
            } catch {
                throw failure("git: \(error)", .badInput)
            }
            let notes = try index.update(notesTip: listing.tip, notes: listing.notes) { try repository.blobText($0) }
            for problem in (files + notes).unreadable { warn("\(problem); skipped") }
            if report {
                say("files     \(files.read) read, \(files.removed) forgotten (\(reports.path))")
                say("notes     \(notes.read) read, \(notes.removed) forgotten (\(GitRepository.chatEvalNotesRef))")
            }
            return index
        }
    }

    /// Brings the index of the reports folder up to date (or rebuilds it), saying what was read;
    /// an index that cannot be kept is exit 3.
    package static func refreshIndex(repo: String?, reportsFolder: String?, project: ProjectSelection, rebuild: Bool) throws {
        let (repository, root) = try openRepository(repo)
        let folder = try Self.reportsFolder(reportsFolder, project: project, root: root)
        let start = Date()
        let index = try updatedIndex(reports: folder, repository: repository, rebuild: rebuild, report: true)
        if index.readOnlyReason != nil {
            throw failure(
                "the index was not kept: \(folder.path) cannot be written to (`history` still works, reading everything)", .runIncomplete)
        }
        say("index     \(index.url.path) up to date in \(String(format: "%.2f", Date().timeIntervalSince(start))) s")
    }
}
