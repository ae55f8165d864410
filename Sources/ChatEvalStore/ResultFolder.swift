import ChatEvalCore
import Foundation

/// The result files of a reports folder (`<UTC time>-<short commit>-<run id>.json`).
public enum ResultFolder {
    /// Result files directly in `folder`, newest first (names sort in time); empty when the
    /// folder does not exist.
    public static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted(by: >).map { folder.appendingPathComponent($0) }
    }

    /// Reads one result file.
    public static func read(_ url: URL) throws(ResultReadError) -> RunRecord {
        let data: Data
        if let size = FileContents.size(atPath: url.path, over: maximumFileBytes) {
            throw ResultReadError(
                path: url.path, message: "is \(ByteCount.format(size)); result files are read up to \(ByteCount.format(maximumFileBytes))")
        }
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ResultReadError(path: url.path, message: "cannot be read (\(error.localizedDescription))")
        }
        var record: RunRecord
        do {
            record = try ResultWriter.makeDecoder().decode(RunRecord.self, from: data)
        } catch {
            throw ResultReadError(path: url.path, message: "is not a ChatEval result file (\(Self.describe(error)))")
        }
        record.clampContradictions()
        let problems = record.validationProblems
        guard problems.isEmpty else {
            throw ResultReadError(
                path: url.path,
                message: "is not a result this ChatEval can trust: " + problems.prefix(3).joined(separator: "; ")
                    + (problems.count > 3 ? "; and \(problems.count - 3) more" : ""))
        }
        return record
    }

    /// Largest result file read (a 1,000-turn run is a few megabytes).
    public static let maximumFileBytes = 256 << 20

    /// The complete runs recorded in `folder` for `commit` (a full id), newest first. Only files
    /// whose name carries an abbreviation of the commit are read; the record confirms it.
    public static func runs(for commit: String, in folder: URL) -> [LocatedRun] {
        files(in: folder).compactMap { url -> LocatedRun? in
            let parts = url.deletingPathExtension().lastPathComponent.split(separator: "-")
            guard parts.count >= 3, parts[1].count >= 7, commit.hasPrefix(parts[1]),
                let record = try? read(url), record.git?.commit == commit, record.status == .complete
            else { return nil }
            return LocatedRun(record: record, source: url.path)
        }
    }

    /// The newest complete run in `folder` (by file name, which sorts in time); nil when it holds none.
    public static func latestRun(in folder: URL) -> LocatedRun? {
        for url in files(in: folder) {
            if let record = try? read(url), record.status == .complete { return LocatedRun(record: record, source: url.path) }
        }
        return nil
    }

    /// The other complete runs of `record`'s side-by-side group in `folder` (empty for a run of no
    /// group). Only files named within a day of the run's start are read: a group's runs start
    /// one after the other.
    public static func groupMates(of record: RunRecord, in folder: URL) -> [LocatedRun] {
        guard let group = record.group, group.count > 1 else { return [] }
        return files(in: folder).compactMap { url -> LocatedRun? in
            let stamp = url.lastPathComponent.prefix { $0 != "-" }
            if let started = UTCTimestamp.date(compact: stamp), abs(started.timeIntervalSince(record.startedAt)) > 86_400 { return nil }
            guard let other = try? read(url), other.runId != record.runId, other.group?.id == group.id, other.status == .complete
            else { return nil }
            return LocatedRun(record: other, source: url.path)
        }
    }

    /// Where a result's JSON failed to decode, in the file's own key names.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "missing '\((context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "."))'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "unexpected value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "not JSON" : "invalid value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        default: String(describing: error)
        }
    }
}
