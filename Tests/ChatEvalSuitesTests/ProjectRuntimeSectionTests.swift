import ChatEvalCore
import ChatEvalSuites
import Testing

/// The project file's `runtime:` section: a served runtime, its settings, located errors.
@Suite struct ProjectRuntimeSectionTests {
    @Test func everyServedSettingIsRead() throws {
        let project = try ProjectFile.parse(
            """
            runtime:
              kind: openai
              base_url: http://127.0.0.1:8080/v1
              model_name: smollm2
              api_key_env: OPENAI_API_KEY
              request_timeout: 120
              connect_timeout: 2.5
              retries: 5
              extra_fields: {repeat_penalty: 1.1, top_k: 40, cache_prompt: true, grammar: "root ::= x", stop_ids: [1, 2], nested: {a: null}}
              affinity: {header: X-Session-Id, user_field: true}
              backend_header: X-Backend
            """, source: "chateval.yaml")
        let runtime = try #require(project.runtime)
        #expect(runtime.kind == .openai)
        #expect(runtime.baseURL == "http://127.0.0.1:8080/v1")
        #expect(runtime.modelNames == ["smollm2"])
        #expect(runtime.apiKeyVariable == "OPENAI_API_KEY")
        #expect(runtime.requestTimeout == 120)
        #expect(runtime.connectTimeout == 2.5)
        #expect(runtime.retries == 5)
        #expect(
            runtime.extraFields == [
                "repeat_penalty": .number(1.1), "top_k": .integer(40), "cache_prompt": .bool(true), "grammar": .string("root ::= x"),
                "stop_ids": .array([.integer(1), .integer(2)]), "nested": .object(["a": .null]),
            ])
        #expect(runtime.affinityHeader == "X-Session-Id")
        #expect(runtime.affinityUserField == true)
        #expect(runtime.backendHeader == "X-Backend")
    }

    @Test func aListOfModelNamesRunsThemSideBySide() throws {
        let project = try ProjectFile.parse("runtime:\n  kind: openai\n  model_name: [qwen2.5:1.5b, llama3.2]\n", source: "chateval.yaml")
        #expect(project.runtime?.modelNames == ["qwen2.5:1.5b", "llama3.2"])
        for bad in ["[a, a]", "[]", "\"\""] {
            #expect(throws: SuiteErrors.self, "model_name: \(bad)") {
                try ProjectFile.parse("runtime:\n  model_name: \(bad)\n", source: "chateval.yaml")
            }
        }
    }

    @Test func badValuesAreLocated() {
        do {
            _ = try ProjectFile.parse(
                """
                runtime:
                  kind: grpc
                  request_timeout: 0
                  retries: 1000
                  extra_fields: [1]
                  affinty: {}
                """, source: "chateval.yaml")
            Issue.record("expected the project file to be rejected")
        } catch {
            let messages = error.errors.map(\.description).joined(separator: "\n")
            #expect(messages.contains("chateval.yaml:2:9: error: unknown runtime.kind 'grpc'"), "\(messages)")
            #expect(messages.contains("request_timeout must be more than 0"))
            #expect(messages.contains("retries must be at most 100"))
            #expect(messages.contains("extra_fields must be a mapping"))
            #expect(messages.contains("did you mean 'affinity'?"))
        }
    }
}
