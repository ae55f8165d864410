import ChatEvalCore
import Foundation
import Testing

/// `JSONValue` (the extra fields of a served runtime's requests): its text and its round trip.
@Suite struct JSONValueTests {
    @Test func itsTextIsCompactJSONWithSortedKeysEscapedTextAndNoNonFiniteNumbers() throws {
        let value = JSONValue.object([
            "b": .array([.integer(1), .number(1.5), .bool(true), .null]),
            "a": .string("line\nbreak \"quoted\" a/b \u{1}"),
            "c": .number(.nan),
        ])
        #expect(value.description == #"{"a":"line\nbreak \"quoted\" a/b \u0001","b":[1,1.5,true,null],"c":null}"#)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(value.description.utf8))
        #expect(
            decoded
                == .object([
                    "a": .string("line\nbreak \"quoted\" a/b \u{1}"), "b": .array([.integer(1), .number(1.5), .bool(true), .null]),
                    "c": .null,
                ]))
    }

    /// The fast path importers read with gives the values the decoder gives, kind for kind: true
    /// is not 1, 2.0 is the integer 2 as the decoder reads it, a 16-digit integer stays whole, and what is not JSON is nil.
    @Test(arguments: [
        #"{"t": true, "f": false, "one": 1, "fraction": 1.5, "whole": 2.0, "big": 9007199254740993, "#
            + #""s": "x", "n": null, "a": [0, [true]]}"#,
        #"[1, -2, 3.25e2, "é", {"k": {}}]"#, #""text""#, "17", "false", "null",
    ])
    func parsingGivesWhatDecodingGives(_ text: String) throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(JSONValue(parsing: Data(text.utf8)) == decoded)
    }

    @Test func parsingWhatIsNotJSONIsNil() {
        #expect(JSONValue(parsing: Data("{broken".utf8)) == nil)
        #expect(JSONValue(parsing: Data()) == nil)
    }
}
