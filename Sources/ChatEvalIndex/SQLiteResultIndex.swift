import ChatEvalCore
import ChatEvalStore
import Foundation

/// `ResultIndex` in one SQLite file (default: `<reports>/.chateval/index.sqlite`).
///
/// SQLite through the system library (Debian's libsqlite3-dev, a module map: `CSQLite`) rather
/// than GRDB.swift: the index needs a dozen statements, which a 160-line owner of the two
/// pointers covers (`SQLiteDatabase`), while GRDB 7.10.0 would add its 167 source files, about
/// 71,000 lines of Swift, to every CI build; the system library adds none.
///
/// Tables: `sources` (each result file or note with the stamp it was read at: size and
/// modification time of a file, blob id of a note), `runs` (one row per run and source, the
/// fields a history groups by), `suites` (checks per suite) and `samples` (every measured
/// turn's value of one metric of one suite, as packed doubles). A schema version in
/// `PRAGMA user_version`; a file of another version, or a damaged one — corrupt pages, a missing
/// table, a folder or a device where the file should be — is rebuilt.
///
/// Result files are known by their name in the reports folder the index lives in, never by an
/// absolute path: a reports folder copied elsewhere (a restored CI cache) indexes its own files,
/// not those of the workspace it came from.
public final class SQLiteResultIndex: ResultIndex {
    /// Bump when the tables change: an index of another version is rebuilt from the sources.
    /// 2: result files by name, relative to the reports folder. 3: samples of `tpot` too (an
    /// index holds the metrics there were when a run was indexed).
    static let schemaVersion = 3

    public let url: URL
    /// The reports folder whose result files the index holds (the index is `<it>/.chateval/index.sqlite`).
    public let reports: URL
    private let database: SQLiteDatabase

    /// The tables an index of this version has: one missing is damage.
    static let tables = ["meta", "sources", "runs", "suites", "samples"]

    /// The index file for the reports folder `folder`, in a `.chateval` folder that tells git to
    /// ignore it.
    public static func defaultURL(reports folder: URL) -> URL {
        folder.appendingPathComponent(".chateval").appendingPathComponent("index.sqlite")
    }

    /// Opens (creating if needed) the index at `url`. With `rebuild`, or when the file is damaged
    /// or of another schema version, starts from an empty index (`wasRebuilt` says so). Where the
    /// index cannot be written (a read-only reports folder), it is built in memory for this
    /// process instead and nothing is written (`readOnlyReason` says why).
    public init(url: URL, rebuild: Bool = false) throws(IndexError) {
        self.url = url
        let folder = url.deletingLastPathComponent()
        reports = folder.deletingLastPathComponent()
        if let reason = Self.readOnlyReason(url) {
            database = try Self.openInMemory()
            wasRebuilt = false
            damage = nil
            readOnlyReason = reason
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ignore = folder.appendingPathComponent(".gitignore")
            if !FileManager.default.fileExists(atPath: ignore.path) {
                try Data("# ChatEval's results index: a cache, rebuilt from the result files and git notes.\n*\n".utf8).write(to: ignore)
            }
        } catch {
            throw IndexError(pointOfFailure: "create the index folder", code: 0, message: error.localizedDescription, path: folder.path)
        }
        if rebuild { Self.remove(url) }
        do {
            database = try Self.open(url)
            wasRebuilt = rebuild
            damage = nil
        } catch {
            // Whatever is wrong with what is there, the result files and notes hold everything: start over.
            Self.remove(url)
            database = try Self.open(url)
            wasRebuilt = true
            damage = error.pointOfFailure == "schema version" ? nil : error.description
        }
    }

    /// What was wrong with the index found at `url`, when it was rebuilt for being damaged (not
    /// for being of another version, or because `rebuild` asked).
    public private(set) var damage: String?

    /// True when this index started empty: asked for, or the old file could not be used.
    public private(set) var wasRebuilt: Bool

    /// Why the index could not be written where it belongs (what is read-only, and the system's
    /// words), when it was built in memory instead; nil for an index kept in its file.
    public private(set) var readOnlyReason: String?

    /// Why the index at `url` cannot be written: the file, or the folder it is in — or, where
    /// those do not exist yet, the nearest folder above them — is not writable; nil when it can.
    static func readOnlyReason(_ url: URL) -> String? {
        var place = url
        while true {
            if FileManager.default.fileExists(atPath: place.path) {
                if access(place.path, W_OK) != 0 { return "\(place.path) is read-only (\(String(cString: strerror(errno))))" }
                if place != url { return nil }
            }
            let parent = place.deletingLastPathComponent()
            if parent.path == place.path { return nil }
            place = parent
        }
    }

    /// Removes the index file and its companions — or a folder, or a link (not what it points
    /// to), standing where they should be.
    private static func remove(_ url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    /// An empty index of this version in memory, for a folder it cannot be written to.
    private static func openInMemory() throws(IndexError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: ":memory:")
        try createTables(database)
        return database
    }

    private static func open(_ url: URL) throws(IndexError) -> SQLiteDatabase {
        // Only a regular file (or nothing yet) is opened: a folder, a device or a link in its place is damage.
        var info = stat()
        if lstat(url.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw IndexError(pointOfFailure: "open", code: 0, message: "not a regular file", path: url.path)
        }
        let database = try SQLiteDatabase(path: url.path)
        let current = try database.integer("PRAGMA user_version")
        let tables = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
        if tables > 0 && current != schemaVersion {
            throw IndexError(
                pointOfFailure: "schema version", code: 0, message: "index version \(current), this chateval writes \(schemaVersion)",
                path: url.path)
        }
        if tables > 0 {
            let present = try database.integer(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'sources', 'runs', 'suites', 'samples')")
            if present != Self.tables.count {
                throw IndexError(
                    pointOfFailure: "check the tables", code: 0, message: "\(Self.tables.count - present) of its tables are missing",
                    path: url.path)
            }
            let check = try database.prepare("PRAGMA quick_check")
            if try check.next(), let verdict = check.text(0), verdict != "ok" {
                throw IndexError(pointOfFailure: "check its pages", code: 0, message: verdict, path: url.path)
            }
        }
        try createTables(database)
        return database
    }

    private static func createTables(_ database: SQLiteDatabase) throws(IndexError) {
        try database.execute(
            """
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS sources (source TEXT PRIMARY KEY, kind TEXT NOT NULL, stamp TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS runs (
                source TEXT NOT NULL, run_id TEXT NOT NULL, commit_id TEXT, dirty INTEGER NOT NULL, started_at REAL NOT NULL,
                status TEXT NOT NULL, machine TEXT NOT NULL, hostname TEXT NOT NULL, model_sha256 TEXT, model TEXT NOT NULL,
                engine TEXT NOT NULL, build TEXT NOT NULL, cache_mode TEXT NOT NULL, role TEXT,
                PRIMARY KEY (source, run_id));
            CREATE INDEX IF NOT EXISTS runs_by_commit ON runs (commit_id);
            CREATE TABLE IF NOT EXISTS suites (
                source TEXT NOT NULL, run_id TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
                checks_passed REAL NOT NULL, checks_total REAL NOT NULL, gates_failed INTEGER NOT NULL,
                PRIMARY KEY (source, run_id, position));
            CREATE TABLE IF NOT EXISTS samples (
                source TEXT NOT NULL, run_id TEXT NOT NULL, position INTEGER NOT NULL, metric TEXT NOT NULL, vals BLOB NOT NULL,
                PRIMARY KEY (source, run_id, position, metric));
            PRAGMA user_version = \(schemaVersion);
            """)
    }

    // MARK: Updating

    public func update(folder: URL) throws(IndexError) -> IndexUpdate {
        var onDisk: [String: String] = [:]  // name in the folder → stamp
        for url in ResultFolder.files(in: folder) {
            var info = stat()
            guard stat(url.path, &info) == 0 else { continue }
            onDisk[url.lastPathComponent] = "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        }
        return try synchronize(kind: "file", with: onDisk) { name, _ in
            do throws(ResultReadError) {
                return ([try ResultFolder.read(folder.appendingPathComponent(name))], [])
            } catch {
                return ([], [error.description])
            }
        }
    }

    public func update(notesTip tip: String?, notes: [String: String], read: (String) throws -> String) throws(IndexError) -> IndexUpdate {
        let tipKey = "notes_tip"
        if try meta(tipKey) == (tip ?? "") { return IndexUpdate() }
        let wanted = Dictionary(uniqueKeysWithValues: notes.map { ("notes:" + $0.key, $0.value) })
        return try synchronize(
            kind: "note", with: wanted,
            records: { source, blob in
                let text: String
                do {
                    text = try read(blob)
                } catch {
                    return ([], ["\(source): cannot be read (\(error))"])
                }
                let (records, unreadable) = RunNote.records(in: text)
                var problems = unreadable.prefix(3).map { "\(source): \($0)" }
                if unreadable.count > 3 { problems.append("\(source): \(unreadable.count - 3) more line(s) like these") }
                return (records, problems)
            },
            before: { () throws(IndexError) in
                try self.database.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run([.text(tipKey), .text(tip ?? "")])
            })
    }

    /// Brings the indexed sources of `kind` in line with `wanted` (source → stamp), in one
    /// transaction: forgets each source no longer wanted, and reads again each new one or one
    /// whose stamp changed — `records` gives its runs and the problems met reading it. `before`
    /// runs last inside the transaction; any failure rolls all of it back.
    private func synchronize(
        kind: String, with wanted: [String: String], records: (_ source: String, _ stamp: String) -> ([RunRecord], [String]),
        before commit: () throws(IndexError) -> Void = {}
    ) throws(IndexError) -> IndexUpdate {
        let known = try stamps(kind: kind)
        try database.begin()
        do {
            var update = IndexUpdate()
            for source in known.keys where wanted[source] == nil {
                try forget(source)
                update.removed += 1
            }
            for (source, stamp) in wanted.sorted(by: { $0.key < $1.key }) where known[source] != stamp {
                try forget(source)
                try remember(source, kind: kind, stamp: stamp)
                update.read += 1
                let (found, unreadable) = records(source, stamp)
                for record in found { try insert(record, source: source) }
                update.unreadable += unreadable
            }
            try commit()
            try database.commit()
            return update
        } catch {
            database.rollback()
            throw error
        }
    }

    private func meta(_ key: String) throws(IndexError) -> String? {
        let statement = try database.prepare("SELECT value FROM meta WHERE key = ?")
        try statement.bind([.text(key)])
        return try statement.next() ? statement.text(0) : nil
    }

    private func stamps(kind: String) throws(IndexError) -> [String: String] {
        let statement = try database.prepare("SELECT source, stamp FROM sources WHERE kind = ?")
        try statement.bind([.text(kind)])
        var stamps: [String: String] = [:]
        while try statement.next() {
            if let source = statement.text(0), let stamp = statement.text(1) { stamps[source] = stamp }
        }
        return stamps
    }

    private func remember(_ source: String, kind: String, stamp: String) throws(IndexError) {
        try database.prepare("INSERT OR REPLACE INTO sources (source, kind, stamp) VALUES (?, ?, ?)").run([
            .text(source), .text(kind), .text(stamp),
        ])
    }

    private func forget(_ source: String) throws(IndexError) {
        for table in ["sources", "runs", "suites", "samples"] {
            try database.prepare("DELETE FROM \(table) WHERE source = ?").run([.text(source)])
        }
    }

    private func insert(_ record: RunRecord, source: String) throws(IndexError) {
        let digest = RunDigest(record, source: source)
        try database.prepare(
            """
            INSERT OR REPLACE INTO runs (source, run_id, commit_id, dirty, started_at, status, machine, hostname, model_sha256, model,
                engine, build, cache_mode, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ).run([
            .text(source), .text(digest.runId), digest.commit.map(SQLiteValue.text), .integer(digest.dirty ? 1 : 0),
            .real(digest.startedAt.timeIntervalSince1970), .text(digest.status.rawValue), .text(digest.machine), .text(digest.hostname),
            digest.modelSha256.map(SQLiteValue.text), .text(digest.model), .text(digest.engine), .text(digest.build),
            .text(digest.cacheMode.rawValue), digest.role.map { .text($0.rawValue) },
        ])
        let suite = try database.prepare(
            """
            INSERT OR REPLACE INTO suites (source, run_id, position, name, checks_passed, checks_total, gates_failed) \
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        let sample = try database.prepare("INSERT OR REPLACE INTO samples (source, run_id, position, metric, vals) VALUES (?, ?, ?, ?, ?)")
        for (position, digestSuite) in digest.suites.enumerated() {
            try suite.run([
                .text(source), .text(digest.runId), .integer(position), .text(digestSuite.name), .real(digestSuite.checksPassed),
                .real(digestSuite.checksTotal), .integer(digestSuite.gatesFailed),
            ])
            for (metric, values) in digestSuite.samples {
                try sample.run([.text(source), .text(digest.runId), .integer(position), .text(metric.rawValue), .blob(Self.pack(values))])
            }
        }
    }

    // MARK: Reading

    public func runs(commits: [String], metrics: Set<Metric>) throws(IndexError) -> [RunDigest] {
        guard !commits.isEmpty else { return [] }
        let commitList = Self.jsonArray(commits)
        let runs = try database.prepare(
            """
            SELECT source, run_id, commit_id, dirty, started_at, status, machine, hostname, model_sha256, model, engine, build, \
            cache_mode, role
            FROM runs WHERE commit_id IN (SELECT value FROM json_each(?)) ORDER BY started_at, source
            """)
        try runs.bind([.text(commitList)])
        var digests: [RunDigest] = []
        var positions: [String: Int] = [:]  // "source\u{0}runId" → index in digests
        var seenRuns: [String: Int] = [:]  // runId → index of the kept copy
        while try runs.next() {
            let source = runs.text(0) ?? "", runId = runs.text(1) ?? ""
            // A file by its name in this reports folder; a note as `notes:<commit>`.
            let located = source.hasPrefix("notes:") ? source : reports.appendingPathComponent(source).path
            let digest = RunDigest(
                runId: runId, source: located, commit: runs.text(2), dirty: runs.integer(3) != 0,
                startedAt: Date(timeIntervalSince1970: runs.real(4)), status: RunRecord.Status(rawValue: runs.text(5) ?? "") ?? .incomplete,
                machine: runs.text(6) ?? "", hostname: runs.text(7) ?? "", modelSha256: runs.text(8), model: runs.text(9) ?? "",
                engine: runs.text(10) ?? "", build: runs.text(11) ?? "", cacheMode: CacheMode(rawValue: runs.text(12) ?? "") ?? .session,
                role: runs.text(13).flatMap(RunRole.init(rawValue:)), suites: [])
            // The same run in a file and in a note: keep the file's.
            if let kept = seenRuns[runId] {
                guard digests[kept].source.hasPrefix("notes:"), !source.hasPrefix("notes:") else { continue }
                positions = positions.filter { $0.value != kept }
                digests[kept] = digest
                positions[source + "\u{0}" + runId] = kept
                continue
            }
            seenRuns[runId] = digests.count
            positions[source + "\u{0}" + runId] = digests.count
            digests.append(digest)
        }

        let suites = try database.prepare(
            """
            SELECT s.source, s.run_id, s.position, s.name, s.checks_passed, s.checks_total, s.gates_failed
            FROM suites s JOIN runs r ON r.source = s.source AND r.run_id = s.run_id
            WHERE r.commit_id IN (SELECT value FROM json_each(?)) ORDER BY s.position
            """)
        try suites.bind([.text(commitList)])
        while try suites.next() {
            guard let index = positions[(suites.text(0) ?? "") + "\u{0}" + (suites.text(1) ?? "")] else { continue }
            let position = suites.integer(2)
            while digests[index].suites.count <= position {
                digests[index].suites.append(SuiteDigest(name: "", samples: [:], checksPassed: 0, checksTotal: 0, gatesFailed: 0))
            }
            digests[index].suites[position] = SuiteDigest(
                name: suites.text(3) ?? "", samples: [:], checksPassed: suites.real(4), checksTotal: suites.real(5),
                gatesFailed: suites.integer(6))
        }

        guard !metrics.isEmpty else { return digests }
        let samples = try database.prepare(
            """
            SELECT s.source, s.run_id, s.position, s.metric, s.vals
            FROM samples s JOIN runs r ON r.source = s.source AND r.run_id = s.run_id
            WHERE r.commit_id IN (SELECT value FROM json_each(?1)) AND s.metric IN (SELECT value FROM json_each(?2))
            """)
        try samples.bind([.text(commitList), .text(Self.jsonArray(metrics.map(\.rawValue)))])
        while try samples.next() {
            guard let index = positions[(samples.text(0) ?? "") + "\u{0}" + (samples.text(1) ?? "")],
                let metric = samples.text(3).flatMap(Metric.init(name:))
            else { continue }
            let position = samples.integer(2)
            guard digests[index].suites.indices.contains(position) else { continue }
            digests[index].suites[position].samples[metric] = Self.unpack(samples.blob(4))
        }
        return digests
    }

    // MARK: Encoding

    /// Doubles as 8-byte little-endian IEEE 754 values.
    static func pack(_ values: [Double]) -> Data {
        var data = Data(capacity: values.count * 8)
        for value in values {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    static func unpack(_ data: Data) -> [Double] {
        var values: [Double] = []
        values.reserveCapacity(data.count / 8)
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                values.append(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
                offset += 8
            }
        }
        return values
    }

    private static func jsonArray(_ strings: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: strings)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
