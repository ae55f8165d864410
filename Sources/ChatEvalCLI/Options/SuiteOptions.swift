import ArgumentParser
import ChatEvalSuites
import Foundation

/// Which suites to use: files, or folders whose `*.yaml` files are taken in name order.
struct SuiteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Suite files or folders of suites.", valueName: "suite"))
    var paths: [String] = ["suites"]

    init() {}

    init(paths: [String]) { self.paths = paths }

    /// The suite files named, folders expanded; bad paths are bad input (exit 2).
    func suiteFiles() throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw failure("\(path): no such suite file or folder", .badInput)
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                let yaml = names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
                if yaml.isEmpty { throw failure("\(path): the folder holds no .yaml suites", .badInput) }
                files += yaml.map { (path as NSString).appendingPathComponent($0) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Loads every suite, printing every problem of every file before failing with exit 2.
    func loadSuites() throws -> [Suite] {
        var suites: [Suite] = []
        var problems: [String] = []
        for file in try suiteFiles() {
            do {
                suites.append(try SuiteLoader.load(path: file))
            } catch {
                problems += error.errors.map(\.description)
            }
        }
        guard problems.isEmpty else {
            FileHandle.standardError.write(Data((problems.joined(separator: "\n") + "\n").utf8))
            throw failure("\(problems.count) problem(s) in the suites; nothing was run", .badInput)
        }
        return suites
    }
}
