internal import CPCRE2

/// A PCRE2 call that failed: which call, PCRE2's error code, and PCRE2's message for it.
struct PCRE2Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's error code (`PCRE2_ERROR_*`, negative); the ones grading reports by name have names.
    struct Code: RawRepresentable, Sendable, Hashable {
        let rawValue: Int32
        init(rawValue: Int32) { self.rawValue = rawValue }

        /// A start position needed more than `RegexLimits.matchLimit` backtracking steps.
        static let matchLimit = Code(rawValue: PCRE2_ERROR_MATCHLIMIT)
        /// Backtracking nested deeper than `RegexLimits.depthLimit`.
        static let depthLimit = Code(rawValue: PCRE2_ERROR_DEPTHLIMIT)
        /// Backtracking needed more memory than `RegexLimits.heapLimitKiB`.
        static let heapLimit = Code(rawValue: PCRE2_ERROR_HEAPLIMIT)
        /// The operation spent its `RegexLimits.stepBudget` (our callout's answer).
        static let stepBudget = Code(rawValue: PCRE2_ERROR_CALLOUT)
    }

    let code: Code
    /// The PCRE2 function that reported it, e.g. `pcre2_match_32`.
    let function: String
    /// PCRE2's text for the code (`pcre2_get_error_message`).
    let message: String

    init(_ code: Int32, in function: String) {
        self.code = Code(rawValue: code)
        self.function = function
        message = Self.message(for: code)
    }

    /// The limit this error is about, in words (`match limit`…), or nil for other failures.
    var limitName: String? {
        switch code {
        case .matchLimit: "match limit"
        case .depthLimit: "depth limit"
        case .heapLimit: "heap limit"
        case .stepBudget: "step budget"
        default: nil
        }
    }

    var description: String {
        code == .stepBudget ? "\(function): step budget exhausted" : "\(function): \(message) (PCRE2 error \(code.rawValue))"
    }

    static func message(for code: Int32) -> String {
        var buffer = [UInt32](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { pcre2_get_error_message_32(code, $0.baseAddress, $0.count) }
        guard length > 0 else { return "unknown PCRE2 error \(code)" }
        return String(scalars: buffer.prefix(Int(length)).compactMap(Unicode.Scalar.init))
    }
}
