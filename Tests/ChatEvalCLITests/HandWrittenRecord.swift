import Foundation

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

    /// One answered turn as a record (and a journal line) holds it.
    static var answeredTurn: [String: Any] {
        [
            "index": 0, "user": "Hi", "messages_sent": 1, "status": "answered", "answer": "Hello",
            "metrics": [
                "prompt_tokens": 10, "generated_tokens": 2, "time_to_first_token": 0.1, "decode_time": 0.1, "total_time": 0.2,
                "inter_token_latencies": [0.1], "stop_reason": "eog",
            ],
        ]
    }

    /// A record of suite `s` (`s.yaml`) with one replay of conversation `c` of one answered turn,
    /// as JSON, after `change`.
    static func oneTurn(_ change: (inout [String: Any]) -> Void) throws -> String {
        var record = make(suites: [
            [
                "name": "s", "path": "s.yaml", "gates": [],
                "conversations": [
                    [
                        "id": "c", "repetition": 1, "warmup": false,
                        "options": [
                            "max_tokens": 16, "temperature": 0, "top_p": 1, "top_k": 0, "seed": 1, "stop": [],
                            "ignore_end_of_generation": false,
                        ],
                        "checks": [], "turns": [answeredTurn],
                    ]
                ],
            ]
        ])
        change(&record)
        return String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)
    }

    /// Edits the first turn of the first replay of the first suite of `record`.
    static func editFirstTurn(_ record: inout [String: Any], _ edit: (inout [String: Any]) -> Void) {
        var suites = record["suites"] as? [[String: Any]] ?? []
        var conversations = suites.first?["conversations"] as? [[String: Any]] ?? []
        var turns = conversations.first?["turns"] as? [[String: Any]] ?? []
        guard !turns.isEmpty else { return }
        edit(&turns[0])
        conversations[0]["turns"] = turns
        suites[0]["conversations"] = conversations
        record["suites"] = suites
    }
}
