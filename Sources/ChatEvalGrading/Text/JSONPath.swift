import ChatEvalCore

/// A path into a JSON value: keys separated by dots, array indices in brackets, `[*]` for every element.
struct JSONPath: Sendable, CustomStringConvertible {
    enum Step: Sendable {
        case key(String)
        case index(Int)
        case every
    }
    let steps: [Step]
    let description: String

    init(_ text: String, error: (String) -> CheckDefinitionError) throws(CheckDefinitionError) {
        description = text
        var steps: [Step] = []
        var key = ""
        let chars = Array(text)
        var i = 0
        func flushKey() {
            if !key.isEmpty {
                steps.append(.key(key))
                key = ""
            }
        }
        if chars.isEmpty { throw error("is an empty path") }
        while i < chars.count {
            let c = chars[i]
            if c == "." {
                if key.isEmpty, case .key? = steps.last { throw error("path \"\(text)\" has an empty key") }
                if key.isEmpty && steps.isEmpty { throw error("path \"\(text)\" has an empty key") }
                flushKey()
                i += 1
            } else if c == "[" {
                flushKey()
                guard let close = chars[i...].firstIndex(of: "]") else { throw error("path \"\(text)\" has an unclosed [") }
                let inside = String(chars[(i + 1)..<close])
                if inside == "*" {
                    steps.append(.every)
                } else if let n = Int(inside), n >= 0 {
                    steps.append(.index(n))
                } else {
                    throw error("path \"\(text)\" has [\(inside)]; expected [n] with n ≥ 0, or [*]")
                }
                i = close + 1
            } else {
                key.append(c)
                i += 1
            }
        }
        if chars.last == "." { throw error("path \"\(text)\" ends with a dot") }
        flushKey()
        self.steps = steps
    }

    enum Resolution {
        case success([ParsedJSON])
        case failure(String)
    }

    /// The values at this path (several with `[*]`), or the first step that could not be followed.
    func resolve(_ root: ParsedJSON) -> Resolution {
        var current = [root]
        var walked = ""
        for step in steps {
            var next: [ParsedJSON] = []
            for value in current {
                switch (step, value) {
                case (.key(let k), .object(let members)):
                    guard let v = members[k] else { return .failure("\(walked.isEmpty ? "the root" : walked) has no key \"\(k)\"") }
                    next.append(v)
                case (.index(let n), .array(let items)):
                    guard n < items.count else {
                        return .failure("\(walked.isEmpty ? "the root" : walked) has \(items.count) items, no [\(n)]")
                    }
                    next.append(items[n])
                case (.every, .array(let items)):
                    next.append(contentsOf: items)
                case (.key(let k), _):
                    return .failure("\(walked.isEmpty ? "the root" : walked) is \(value.typeName), not an object (looking for \"\(k)\")")
                case (.index, _), (.every, _):
                    return .failure("\(walked.isEmpty ? "the root" : walked) is \(value.typeName), not an array")
                }
            }
            switch step {
            case .key(let k): walked += walked.isEmpty ? k : ".\(k)"
            case .index(let n): walked += "[\(n)]"
            case .every: walked += "[*]"
            }
            current = next
        }
        return .success(current)
    }
}
