import ChatEvalCore
import Testing

@testable import ChatEvalGrading

@Suite("JSON checks")
struct JSONChecksTests {
    @Test func isJSONFollowsPythonJSONLoads() throws {
        let valid = [
            #"{"a": [1, 2.5, -3e2, true, null]}"#, #"  "text"  "#, "42", "NaN", "-Infinity",
            #"{"é": "日本 🎉", "esc": "\u00e9\n"}"#, "[]", #"{"a": 1, "a": 2}"#,
        ]
        for text in valid { #expect(try verdict("is-json", on: text).passed, "\(text)") }
        let invalid = [
            #"{"a": 1,}"#, "{'a': 1}", "01", "1.", "[1 2]", "\"tab\there\"", #"{"a": 1} x"#, "", "nan",
            #""\x41""#, "\u{FEFF}{}",
        ]
        for text in invalid { #expect(!(try verdict("is-json", on: text).passed), "\(text)") }
    }

    @Test func fencesOnlyWhenAllowed() throws {
        let fenced = "```json\n{\"a\": 1}\n```"
        #expect(!(try verdict("is-json", on: fenced).passed))
        #expect(try verdict("is-json", ["allow-fences": true], on: fenced).passed)
    }

    @Test func deepNestingIsRejectedNotCrashing() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let v = try verdict("is-json", on: deep)
        #expect(!v.passed)
        #expect(v.detail.contains("nesting"))
    }

    @Test func requiredPathsAndTypes() throws {
        let answer =
            #"{"name": "Ana", "age": 31, "score": 9.5, "tags": ["a", "b"], "address": {"city": "Lyon"}, "items": [{"id": 1}, {"id": 2}]}"#
        let ok = try verdict(
            "json",
            [
                "required": [
                    "name": "string", "age": "integer", "score": "number",
                    "tags[1]": "string", "address.city": "string", "items[*].id": "integer",
                ]
            ], on: answer)
        #expect(ok.passed, "\(ok.detail)")
        let wrongType = try verdict("json", ["required": ["age": "string"]], on: answer)
        #expect(!wrongType.passed)
        #expect(wrongType.detail.contains("found integer"))
        let missing = try verdict("json", ["required": ["address.zip": "string"]], on: answer)
        #expect(!missing.passed)
        #expect(missing.detail.contains("no key \"zip\""))
        #expect(!(try verdict("json", ["required": ["tags[5]": "any"]], on: answer).passed))
        #expect(try verdict("json", ["root": "object"], on: answer).passed)
        #expect(!(try verdict("json", ["root": "array"], on: answer).passed))
        #expect(try verdict("json", ["required": ["名前": "string"]], on: #"{"名前": "🎉"}"#).passed)
        #expect(!(try verdict("json", on: "").passed))
        #expect(!(try verdict("json", on: megabyteAnswer).passed))
    }

    @Test func megabyteOfJSONParses() throws {
        let big = "[" + Array(repeating: #"{"k": "value é 🎉"}"#, count: 50_000).joined(separator: ",") + "]"
        #expect(try verdict("json", ["required": ["[*].k": "string"]], on: big).passed)
    }

    @Test func badDefinitions() {
        #expect(definitionError("json", ["required": ["a": "strng"]])?.suggestions == ["string"])
        #expect(definitionError("json", ["required": ["a[x]": "string"]])?.kind == .invalidValue)
        #expect(definitionError("json", ["required": ["a": 3]])?.kind == .wrongType)
        #expect(definitionError("json", ["root": "tuple"])?.kind == .invalidValue)
    }
}
