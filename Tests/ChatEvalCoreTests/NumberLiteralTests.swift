import ChatEvalCore
import Testing

/// One grammar for numbers in suites, project files and gates.
@Suite struct NumberLiteralTests {
    @Test(arguments: [("42", 42.0), ("-3", -3), ("+7", 7), ("0.5", 0.5), (".5", 0.5), ("5.", 5), ("1e3", 1000), ("2.5E-3", 0.0025)])
    func decimalForms(_ text: String, _ value: Double) throws {
        let parsed = try #require(try NumberLiteral.parse(text)?.get())
        #expect(parsed.doubleValue == value)
    }

    @Test(arguments: ["0x10", "0o7", "inf", ".inf", "nan", "1_000", "", ".", "e3", "1e", "1.2.3", " 1", "1 ", "١٢"])
    func otherFormsAreNotNumbers(_ text: String) {
        #expect(NumberLiteral.parse(text) == nil)
    }

    @Test func hugeNumbersAreOutOfRangeNotRounded() throws {
        for text in ["99999999999999999999", "1e999"] {
            guard case .failure(let error)? = NumberLiteral.parse(text) else {
                Issue.record("\(text) parsed as a number")
                continue
            }
            #expect(error.text == text)
        }
        #expect(try NumberLiteral.parse("1e19")?.get().integerValue == nil)  // a Double, not an Int
        #expect(try NumberLiteral.parse("1e3")?.get().integerValue == 1000)
    }

    @Test func byteSizes() {
        #expect(ByteSize.parse("600MB") == 600e6)
        #expect(ByteSize.parse("1.5 GiB") == 1.5 * 1_073_741_824)
        #expect(ByteSize.parse("1e3") == 1000)
        #expect(ByteSize.parse("12") == 12)
        #expect(ByteSize.parse("-1MB") == nil && ByteSize.parse("1 parsec") == nil && ByteSize.parse("0x10") == nil)
    }
}
