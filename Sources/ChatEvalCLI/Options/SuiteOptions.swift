import ArgumentParser
import ChatEvalSuites
import Foundation

/// Which suites to use: files, or folders whose `*.yaml` files are taken in name order
/// (default: the project file's `suites`, else `suites`).
struct SuiteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Suite files or folders of suites (default: the project file's, else suites/).", valueName: "suite"))
    var paths: [String] = []

    /// The paths given, or nil when none were (so the project file or the default applies).
    var given: [String]? { paths.isEmpty ? nil : paths }
}

/// Loading suites from disk, with every problem of every file printed before failing (exit 2).
enum SuiteFiles {
    /// The suite files named, folders expanded; bad paths are bad input.
    static func files(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw failure("\(path): no such suite file or folder", .badInput)
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

    static func isSuiteName(_ name: String) -> Bool { name.hasSuffix(".yaml") || name.hasSuffix(".yml") }

    static func load(_ paths: [String]) throws -> [Suite] {
        try collect(files(paths).map { file in Result { () throws(SuiteErrors) in try SuiteLoader.load(path: file) } })
    }

    /// The suites loaded, or — after printing every problem of every file — bad input (exit 2).
    static func collect(_ loaded: [Result<Suite, SuiteErrors>]) throws -> [Suite] {
        var suites: [Suite] = []
        var problems: [String] = []
        for result in loaded {
            switch result {
            case .success(let suite):
                suites.append(suite)
                if !suite.warnings.isEmpty { complain(suite.warnings.map(\.description).joined(separator: "\n")) }
            case .failure(let errors): problems += errors.errors.map(\.description)
            }
        }
        guard problems.isEmpty else {
            complain(problems.joined(separator: "\n"))
            throw failure("\(problems.count) problem(s) in the suites; nothing was run", .badInput)
        }
        return suites
    }
}
