import Foundation

/// Processes as Linux's /proc shows them, for tests that count what a command left running.
public enum ProcessTable {
    /// The processes alive — zombies (dead, not yet reaped) aside — in process group `group`, and
    /// those of `pids` alive outside it.
    public static func alive(inGroup group: pid_t, orAmong pids: Set<pid_t> = []) -> [pid_t] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm) ": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", fields[0] != "X" else { return nil }
            return pid_t(fields[2]) == group || pids.contains(pid) ? pid : nil
        }
    }
}
