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
}
