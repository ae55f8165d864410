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
