/// Checks that a JSON document uses only keys its JSON Schema declares, so that a documented
/// format cannot drift from what the encoder writes.
public enum SchemaCoverage {
    /// Key paths present in `value` that `schema` does not declare, following `$ref` (to
    /// `#/$defs/...` of `root`), `items`, and `additionalProperties` for maps whose keys are data.
    public static func undocumentedKeys(in value: Any, schema: [String: Any], root: [String: Any], path: String = "$") -> [String] {
        var schema = schema
        if let reference = schema["$ref"] as? String, reference.hasPrefix("#/$defs/"),
            let definitions = root["$defs"] as? [String: Any],
            let target = definitions[String(reference.dropFirst("#/$defs/".count))] as? [String: Any]
        {
            schema = target
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            let values = schema["additionalProperties"] as? [String: Any]
            return object.keys.sorted().flatMap { key -> [String] in
                guard let property = properties[key] as? [String: Any] ?? values else { return ["\(path).\(key)"] }
                return undocumentedKeys(in: object[key] as Any, schema: property, root: root, path: "\(path).\(key)")
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            return array.flatMap { undocumentedKeys(in: $0, schema: items, root: root, path: "\(path)[]") }
        }
        return []
    }
}
