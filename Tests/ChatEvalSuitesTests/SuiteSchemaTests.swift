import ChatEvalGrading
import ChatEvalSuites
import Foundation
import Testing

/// suites/schema/suite.schema.json (for editors) agrees with the loader's check catalogue.
@Suite struct SuiteSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("suites/schema/suite.schema.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func enumeration(_ definition: String, in schema: [String: Any]) throws -> [String] {
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let entry = try #require(definitions[definition] as? [String: Any], "no $defs.\(definition)")
        return try #require(entry["enum"] as? [String])
    }

    @Test func theSchemaListsExactlyTheCatalogue() throws {
        let schema = try schema()
        let names = CheckCatalogue.allTypes.map(\.name)
        #expect(try enumeration("checkType", in: schema) == names)
        #expect(try enumeration("negatedCheckType", in: schema) == names.map { CheckCatalogue.negationPrefix + $0 })
    }

    /// Every top-level key the loader takes, `variants` included (it was missing, issue 31), and a
    /// variant takes an id, a description, every conversation setting and its own user messages.
    @Test func theSchemaTakesEveryTopLevelKeyAndVariants() throws {
        let schema = try schema()
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == ["name", "description", "defaults", "variants", "gates", "compare", "slo", "conversations"])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let settings = try #require((definitions["settings"] as? [String: Any])?["properties"] as? [String: Any])
        let variant = try #require((definitions["variant"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(variant.keys) == Set(settings.keys).union(["id", "description", "turns"]))
        // The loader takes what the schema describes.
        let suite = try SuiteLoader.parse(
            "name: v\nvariants: [{id: a, system: A.}, {id: b, max_tokens: 8, vars: {x: 1}, turns: [hello]}]\nconversations:\n"
                + "  - id: c\n    turns: [{user: hi}]\n", file: "v.yaml")
        #expect(suite.variants == ["a", "b"])
    }

    @Test func everyShippedSuiteUsesKnownTypesAndLoads() throws {
        let folder = Self.root.appendingPathComponent("suites")
        let known = Set(try enumeration("checkType", in: schema()))
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".yaml") {
            let suite = try SuiteLoader.load(path: folder.appendingPathComponent(file).path)
            let types = suite.conversations.flatMap { $0.checks + $0.turnChecks.flatMap { $0 } }.map(\.type)
            for type in types {
                let base =
                    type.hasPrefix(CheckCatalogue.negationPrefix) ? String(type.dropFirst(CheckCatalogue.negationPrefix.count)) : type
                #expect(known.contains(base), "\(file): \(type)")
            }
        }
    }
}
