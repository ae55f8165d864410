/// Byte sizes as suites and project files write them: a number of bytes, or a number and a unit
/// among B, KB, MB, GB, TB (powers of 1000) and KiB, MiB, GiB, TiB (powers of 1024),
/// case-insensitive, spaces allowed (`600MB`, `1.5 GiB`).
public enum ByteSize {
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.filter { !$0.isWhitespace }
        if case .success(let number)? = NumberLiteral.parse(trimmed) {
            return number.doubleValue >= 0 ? number.doubleValue : nil
        }
        let unitStart = trimmed.firstIndex { $0.isLetter } ?? trimmed.endIndex
        guard case .success(let number)? = NumberLiteral.parse(String(trimmed[..<unitStart])), number.doubleValue >= 0 else { return nil }
        let units: [String: Double] = [
            "": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
            "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824, "tib": 1_099_511_627_776,
        ]
        guard let scale = units[trimmed[unitStart...].lowercased()] else { return nil }
        let bytes = number.doubleValue * scale
        return bytes.isFinite ? bytes : nil
    }
}
