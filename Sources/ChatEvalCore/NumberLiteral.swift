/// The one grammar for numbers written in suites, project files and answers' settings: decimal
/// integers (`42`, `-3`) and decimals with an optional exponent (`0.5`, `.5`, `1e3`, `2.5E-3`),
/// as YAML 1.2's core schema writes them. No hexadecimal, octal, `inf`, `nan` or digit
/// separators: a number that means something else in another tool is refused, not guessed.
public enum NumberLiteral: Sendable, Hashable {
    case integer(Int)
    case decimal(Double)

    /// The number `text` spells, or nil when it is not one; `.failure` when it is a whole number
    /// too large for a 64-bit integer (an error worth naming, not a silent rounding).
    public static func parse(_ text: String) -> Result<NumberLiteral, OutOfRange>? {
        let bytes = Array(text.utf8)
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = index - integerStart
        var fractionDigits = 0
        var isDecimal = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isDecimal = true
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            fractionDigits = index - fractionStart
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isDecimal = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            let exponentStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > exponentStart else { return nil }
        }
        guard index == bytes.count else { return nil }
        if isDecimal {
            guard let value = Double(text), value.isFinite else { return .failure(OutOfRange(text: text)) }
            return .success(.decimal(value))
        }
        guard let value = Int(text) else { return .failure(OutOfRange(text: text)) }
        return .success(.integer(value))
    }

    /// The value as a Double (integers convert exactly up to 2^53).
    public var doubleValue: Double {
        switch self {
        case .integer(let value): Double(value)
        case .decimal(let value): value
        }
    }

    /// The value as an Int when it is whole and fits (`1e3` is 1000; `1.5` and `1e19` are not Ints).
    public var integerValue: Int? {
        switch self {
        case .integer(let value): value
        case .decimal(let value): value.rounded() == value ? Int(exactly: value) : nil
        }
    }

    public struct OutOfRange: Error, Sendable, Hashable {
        public var text: String
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
