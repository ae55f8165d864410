import ChatEvalCore
import ChatEvalGrading
import Foundation

/// Agreement with the Python references, on the files `scripts/grading-reference.py` writes.
enum Agreement {
    /// One line of `ifeval.jsonl`: an instruction, its arguments, an answer and the harness's verdicts.
    struct IFEvalCase: Decodable {
        let id: String
        let kwargs: [String: JSONArgument]
        let response: String
        let strict: Bool
        let loose: Bool
    }

    /// One line of `langdetect.jsonl`: a text, the language it was written in, what langdetect reports.
    struct LanguageCase: Decodable {
        let language: String
        let text: String
        let langdetect: String?
    }

    /// A JSON value as a check argument (IFEval's kwargs are strings, integers and lists of strings).
    struct JSONArgument: Decodable {
        let argument: CheckArgument

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let integer = try? container.decode(Int.self) {
                argument = .integer(integer)
            } else if let string = try? container.decode(String.self) {
                argument = .string(string)
            } else {
                argument = .list(try container.decode([String].self).map(CheckArgument.string))
            }
        }
    }

    static func lines<T: Decodable>(_ file: String, as type: T.Type) -> [T]? {
        guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
            print("cannot read \(file); run scripts/grading-reference.py first")
            return nil
        }
        let decoder = JSONDecoder()
        do {
            return try text.split(separator: "\n").map { try decoder.decode(T.self, from: Data($0.utf8)) }
        } catch {
            print("\(file): \(error)")
            return nil
        }
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : String(format: "%.1f%%", 100 * Double(part) / Double(whole))
    }

    /// Per instruction and overall: how often ChatEval's strict and loose verdicts equal the harness's.
    static func ifeval(file: String, showDisagreements: Bool) -> Bool {
        guard let cases = lines(file, as: IFEvalCase.self) else { return false }
        var order: [String] = []
        var tallies: [String: (total: Int, strict: Int, loose: Int)] = [:]
        for c in cases {
            if tallies[c.id] == nil {
                order.append(c.id)
                tallies[c.id] = (0, 0, 0)
            }
            var arguments = CheckArgument.Map(c.kwargs.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: $0.value.argument) })
            let strict: Verdict, loose: Verdict
            do {
                strict = try CheckCatalogue.make(type: c.id, arguments: arguments).evaluate(GradingSubject(answer: c.response))
                arguments.fields.append(.init(key: "mode", value: "loose"))
                loose = try CheckCatalogue.make(type: c.id, arguments: arguments).evaluate(GradingSubject(answer: c.response))
            } catch {
                print("\(c.id): \(error)")
                return false
            }
            tallies[c.id]?.total += 1
            if strict.passed == c.strict { tallies[c.id]?.strict += 1 }
            if loose.passed == c.loose { tallies[c.id]?.loose += 1 }
            if showDisagreements && (strict.passed != c.strict || loose.passed != c.loose) {
                print(
                    "  disagreement \(c.id) \(c.kwargs.mapValues { $0.argument.shortDescription }): "
                        + "harness strict \(c.strict) loose \(c.loose), "
                        + "ChatEval strict \(strict.passed) loose \(loose.passed): \(strict.detail) — "
                        + "\(c.response.debugDescription.prefix(200))"
                )
            }
        }
        print("IFEval agreement with lm-evaluation-harness 0.4.13 on \(cases.count) generated answers (strict, loose):")
        var all = (total: 0, strict: 0, loose: 0)
        for id in order {
            guard let t = tallies[id] else { continue }
            all = (all.total + t.total, all.strict + t.strict, all.loose + t.loose)
            print(
                "  \(id.padding(toLength: 46, withPad: " ", startingAt: 0)) \(t.strict)/\(t.total) \(percent(t.strict, t.total))"
                    + "   \(t.loose)/\(t.total) \(percent(t.loose, t.total))")
        }
        print(
            "  \("all".padding(toLength: 46, withPad: " ", startingAt: 0)) \(all.strict)/\(all.total) \(percent(all.strict, all.total))"
                + "   \(all.loose)/\(all.total) \(percent(all.loose, all.total))")
        return true
    }

    /// How often ChatEval's language identification names the language langdetect names.
    static func languages(file: String, showDisagreements: Bool) -> Bool {
        guard let cases = lines(file, as: LanguageCase.self) else { return false }
        guard let identifier = LanguageIdentifier.shared else {
            print("language identification unavailable (install libexttextcat-data)")
            return false
        }
        var order: [String] = []
        var tallies: [String: (total: Int, agreed: Int)] = [:]
        for c in cases {
            if tallies[c.language] == nil {
                order.append(c.language)
                tallies[c.language] = (0, 0)
            }
            let detected = identifier.detect(c.text)
            tallies[c.language]?.total += 1
            if detected == c.langdetect {
                tallies[c.language]?.agreed += 1
            } else if showDisagreements {
                print(
                    "  disagreement \(c.language): langdetect \(c.langdetect ?? "none"), ChatEval \(detected ?? "none"): "
                        + "\(c.text.prefix(100))"
                )
            }
        }
        let agreed = tallies.values.reduce(0) { $0 + $1.agreed }
        print(
            "langdetect 1.0.9 agreement on \(cases.count) generated texts in \(order.count) languages: "
                + "\(agreed)/\(cases.count) (\(percent(agreed, cases.count)))")
        print("  " + order.map { code in tallies[code].map { "\(code) \($0.agreed)/\($0.total)" } ?? code }.joined(separator: ", "))
        return true
    }
}
