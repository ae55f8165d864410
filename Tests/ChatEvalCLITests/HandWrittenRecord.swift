/// The smallest complete run record ChatEval reads, as JSON objects, for tests that write one by
/// hand (to corrupt a field, or to record a run outside a repository): one repetition on a
/// made-up machine and model, with `suites` and, when `workdir` is given, a clean git snapshot.
enum HandWrittenRecord {
    static func make(suites: [[String: Any]], workdir: String? = nil) -> [String: Any] {
        var record: [String: Any] = [
            "schema_version": 1, "run_id": "r1", "status": "complete", "started_at": "2026-11-23T10:00:00Z",
            "command": ["chateval", "run"],
            "machine": [
                "hostname": "h", "cpu_model": "cpu", "logical_cores": 2, "memory_bytes": 1, "operating_system": "Linux", "kernel": "6",
                "architecture": "x86_64",
            ],
            "runtime": [
                "engine": "llama.cpp", "build": "b", "model": ["path": "m.gguf", "file_bytes": 1, "description": "m"],
                "chat_template": "embedded", "chat_template_source": "model", "context_size": 4096, "batch_size": 512, "threads": 2,
            ],
            "settings": ["cache_mode": "session", "repetitions": 1, "warmup_conversations": 0],
            "suites": suites, "gates_passed": true,
        ]
        if let workdir {
            record["git"] = [
                "commit": String(repeating: "a", count: 40), "short_commit": "aaaaaaa", "branch": "main", "is_detached": false,
                "is_unborn": false, "modified_count": 0, "untracked_count": 0, "is_shallow": false, "is_dirty": false,
                "workdir": workdir,
            ]
        }
        return record
    }
}
