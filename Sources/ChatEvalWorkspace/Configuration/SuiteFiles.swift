import ChatEvalCore
import ChatEvalSuites
import Foundation

/// Loading suites from disk, with every problem of every file printed before failing (exit 2).
package enum SuiteFiles {
    /// The suite files named, folders expanded; bad paths are bad input.
    package static func files(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw failure("\(path): no such suite file or folder\(nearPathHint(path))", .badInput)
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let yaml = names.filter(isSuiteName).sorted()
                if yaml.isEmpty { throw failure("\(path): the folder holds no .yaml suites", .badInput) }
                files += yaml.map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    package static func isSuiteName(_ name: String) -> Bool { name.hasSuffix(".yaml") || name.hasSuffix(".yml") }

    /// The suites of `paths`; `validating` says problems found were not about to run anything
    /// (`validate`), so the message does not say "nothing was run".
    package static func load(_ paths: [String], validating: Bool = false) throws -> [Suite] {
        try collect(
            files(paths).map { file in Result { () throws(SuiteErrors) in try SuiteLoader.load(path: file) } }, validating: validating)
    }

    /// The suites a plain run replays: those configured — or, when neither the command line nor
    /// the project file names any and the default folder does not exist, the built-in chat
    /// benchmark (`BuiltInBenchmark`), announced through `info`.
    package static func load(for configuration: RunConfiguration, info: (String) -> Void) throws -> [Suite] {
        let defaultFolder = configuration.suitePaths == ["suites"] && configuration.sources["suites"] == .builtIn
        guard defaultFolder, !FileManager.default.fileExists(atPath: "suites") else { return try load(configuration.suitePaths) }
        info("suites    none here (no suites/ folder, none named): the built-in chat benchmark, \(BuiltInBenchmark.summary)")
        return try collect([Result { () throws(SuiteErrors) in try BuiltInBenchmark.suite() }])
    }

    /// The conversations `selection` picks; a selection that picks nothing is bad input (exit 2).
    package static func select(_ suites: [Suite], _ selection: SuiteSelection) throws -> [Suite] {
        guard !selection.isEmpty else { return suites }
        switch selection.apply(to: suites) {
        case .success(let selected): return selected
        case .failure(let error): throw failure(error.message, .badInput)
        }
    }

    /// The suites loaded, or — after printing every problem of every file — bad input (exit 2).
    /// `quiet`: nothing printed; a failure names the first problem (a commit a bisection skips is
    /// listed with it).
    static func collect(_ loaded: [Result<Suite, SuiteErrors>], validating: Bool = false, quiet: Bool = false) throws -> [Suite] {
        var suites: [Suite] = []
        var problems: [String] = []
        for result in loaded {
            switch result {
            case .success(let suite):
                suites.append(suite)
                if !suite.warnings.isEmpty, !quiet { complain(suite.warnings.map(\.description).joined(separator: "\n")) }
            case .failure(let errors): problems += errors.errors.map(\.description)
            }
        }
        if quiet, let first = problems.first {
            throw failure(first + (problems.count > 1 ? " (and \(problems.count - 1) more problem(s))" : ""), .badInput)
        }
        guard problems.isEmpty else {
            complain(problems.joined(separator: "\n"))
            throw failure("\(problems.count) problem(s) in the suites" + (validating ? "" : "; nothing was run"), .badInput)
        }
        return suites
    }
}
