/// Checks a JSON document against its JSON Schema both ways, so that a documented format cannot
/// drift from what the encoder writes and the decoder reads: the document uses only keys the
/// schema declares; the schema declares only keys a full document holds; every object holds the
/// keys the schema requires; and `withoutOneOptionalKey` gives the documents a reader must accept.
/// Schemas are followed through `$ref` (to `#/$defs/...` of `root`), `properties`, `items`, and
/// `additionalProperties` for maps whose keys are data.
public enum SchemaCoverage {
    /// Key paths present in `value` that `schema` does not declare.
    public static func undocumentedKeys(in value: Any, schema: [String: Any], root: [String: Any], path: String = "$") -> [String] {
        let schema = resolved(schema, root: root)
        if let object = value as? [String: Any] {
            return object.keys.sorted().flatMap { key -> [String] in
                guard let property = propertySchema(key, in: schema) else { return ["\(path).\(key)"] }
                return undocumentedKeys(in: object[key] as Any, schema: property, root: root, path: "\(path).\(key)")
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            return array.flatMap { undocumentedKeys(in: $0, schema: items, root: root, path: "\(path)[]") }
        }
        return []
    }

    /// Key paths `schema` declares on an object of `value` that no object at that place holds
    /// (the elements of an array, and the values of a map — path `.*` — count together): what a
    /// document with every optional field set should leave empty.
    public static func unwrittenKeys(in value: Any, schema: [String: Any], root: [String: Any]) -> [String] {
        var declared: [String: Set<String>] = [:]
        var written: [String: Set<String>] = [:]
        collectKeys(value, schema: schema, root: root, path: "$", declared: &declared, written: &written)
        return declared.flatMap { path, names in names.subtracting(written[path] ?? []).map { "\(path).\($0)" } }.sorted()
    }

    /// Key paths the schema's `required` lists name that an object of `value` lacks.
    public static func missingRequiredKeys(in value: Any, schema: [String: Any], root: [String: Any], path: String = "$") -> [String] {
        let schema = resolved(schema, root: root)
        if let object = value as? [String: Any] {
            let missing = (schema["required"] as? [String] ?? []).filter { object[$0] == nil }.map { "\(path).\($0)" }
            return missing
                + object.keys.sorted().flatMap { key -> [String] in
                    guard let property = propertySchema(key, in: schema) else { return [] }
                    return missingRequiredKeys(in: object[key] as Any, schema: property, root: root, path: "\(path).\(key)")
                }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            return array.flatMap { missingRequiredKeys(in: $0, schema: items, root: root, path: "\(path)[]") }
        }
        return []
    }

    /// For each key of `value` that the schema does not require where it stands (a map's entries,
    /// whose keys are data, aside), its path and `value` without that one key: documents a reader
    /// of the format must accept.
    public static func withoutOneOptionalKey(
        _ value: Any, schema: [String: Any], root: [String: Any], path: String = "$"
    ) -> [(path: String, document: Any)] {
        let schema = resolved(schema, root: root)
        if let object = value as? [String: Any] {
            let required = Set(schema["required"] as? [String] ?? [])
            let isMap = schema["properties"] == nil && schema["additionalProperties"] is [String: Any]
            return object.keys.sorted().flatMap { key -> [(path: String, document: Any)] in
                var variants: [(path: String, document: Any)] = []
                if !isMap && !required.contains(key) {
                    var without = object
                    without[key] = nil
                    variants.append(("\(path).\(key)", without))
                }
                guard let property = propertySchema(key, in: schema), let item = object[key] else { return variants }
                return variants
                    + withoutOneOptionalKey(item, schema: property, root: root, path: "\(path).\(key)").map { inner in
                        var changed = object
                        changed[key] = inner.document
                        return (inner.path, changed)
                    }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            return array.indices.flatMap { index in
                withoutOneOptionalKey(array[index], schema: items, root: root, path: "\(path)[\(index)]").map { inner in
                    var changed = array
                    changed[index] = inner.document
                    return (inner.path, changed)
                }
            }
        }
        return []
    }

    // MARK: Walking the schema

    private static func resolved(_ schema: [String: Any], root: [String: Any]) -> [String: Any] {
        guard let reference = schema["$ref"] as? String, reference.hasPrefix("#/$defs/"),
            let definitions = root["$defs"] as? [String: Any],
            let target = definitions[String(reference.dropFirst("#/$defs/".count))] as? [String: Any]
        else { return schema }
        return target
    }

    /// The schema of `key`'s value in an object of `schema`: a declared property, or a map's values.
    private static func propertySchema(_ key: String, in schema: [String: Any]) -> [String: Any]? {
        (schema["properties"] as? [String: Any])?[key] as? [String: Any] ?? schema["additionalProperties"] as? [String: Any]
    }

    private static func collectKeys(
        _ value: Any, schema: [String: Any], root: [String: Any], path: String, declared: inout [String: Set<String>],
        written: inout [String: Set<String>]
    ) {
        let schema = resolved(schema, root: root)
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            declared[path, default: []].formUnion(properties.keys)
            written[path, default: []].formUnion(object.keys)
            for (key, item) in object {
                if let property = properties[key] as? [String: Any] {
                    collectKeys(item, schema: property, root: root, path: "\(path).\(key)", declared: &declared, written: &written)
                } else if let values = schema["additionalProperties"] as? [String: Any] {
                    collectKeys(item, schema: values, root: root, path: "\(path).*", declared: &declared, written: &written)
                }
            }
        } else if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for element in array {
                collectKeys(element, schema: items, root: root, path: "\(path)[]", declared: &declared, written: &written)
            }
        }
    }
}
