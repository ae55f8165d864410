import ChatEvalStore
import Foundation

/// Where `chateval calibrate` keeps what it measured: one JSON file per machine class and model
/// under `<reports>/.chateval/calibration/`, named by a digest of the two.
public enum GateAuditStore {
    /// The folder of every calibration under the reports folder `reports`.
    public static func folder(reports: String) -> URL {
        URL(fileURLWithPath: reports).appendingPathComponent(".chateval/calibration", isDirectory: true)
    }

    /// The file for runs of `record`'s machine class and model.
    public static func url(for record: RunRecord, reports: String) -> URL {
        url(machine: record.machine.performanceClass, modelSha256: record.modelSha256, model: record.runtime.model.path, reports: reports)
    }

    /// The file for runs of machine class `machine` and the model `modelSha256` names (else the file name of `model`).
    public static func url(machine: String, modelSha256: String?, model: String, reports: String) -> URL {
        let key = FileDigest.sha256(of: Data("\(machine)\n\(modelSha256 ?? URL(fileURLWithPath: model).lastPathComponent)".utf8))
        return folder(reports: reports).appendingPathComponent("gate-\(key.prefix(16)).json")
    }

    /// The calibration of this record's machine class and model, when there is a readable one.
    public static func load(for record: RunRecord, reports: String) -> GateAudit? {
        guard let data = FileContents.read(atPath: url(for: record, reports: reports).path),
            let audit = try? ResultWriter.makeDecoder().decode(GateAudit.self, from: data),
            audit.schemaVersion == GateAudit.currentSchemaVersion, audit.machine == record.machine.performanceClass
        else { return nil }
        return audit
    }

    /// Writes `audit` to `url` atomically, creating its folder.
    public static func save(_ audit: GateAudit, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let data = try ResultWriter.makeEncoder(pretty: true).encode(audit)
        try AtomicFile.write(data, to: url)
    }
}
