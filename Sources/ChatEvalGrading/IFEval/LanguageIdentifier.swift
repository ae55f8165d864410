internal import CTextCat
import Foundation

/// Language identification for IFEval's language checks, standing in for Python's langdetect.
///
/// 1. langdetect raises ("No features in text") when, after removing URLs and e-mail addresses
///    (and Latin letters, when other scripts dominate), no letter is left; IFEval then counts
///    the instruction as followed. `hasFeatures` replicates that (letters = Unicode category L).
/// 2. Scripts used by one langdetect language decide alone (Hangul → ko, kana → ja, Thai,
///    Greek, Hebrew, Telugu, Tamil, Kannada, Malayalam, Gujarati, Gurmukhi, Bengali), as
///    langdetect's profiles effectively do.
/// 3. Otherwise the lowercased text's n-gram fingerprint (libexttextcat, Debian's
///    libexttextcat-data) is compared with those of langdetect's 55 languages only, and the
///    nearest wins (mapped to ISO 639-1 as langdetect reports it: `zh-cn`, `zh-tw`, `no` for
///    Bokmål/Nynorsk). libexttextcat knows many more languages (Scots, Latin, Esperanto…), and
///    plain English could come out as one of them; langdetect never names those.
///
/// The ranking is done here with the library's own fingerprints and distance (`fp_Create`,
/// `fp_Compare`) rather than by `textcat_ClassifyFull`, which offers every fingerprint of its
/// configuration and answers "unknown" when more than five score within 3% of the best, where
/// langdetect always names its most likely language.
///
/// Short or mixed-language texts are where detectors disagree; langdetect itself is random there.
package final class LanguageIdentifier: Sendable {
    /// The shared identifier; nil when libexttextcat's data is not installed.
    package static let shared: LanguageIdentifier? = LanguageIdentifier()

    static let fingerprintDirectories = ["/usr/share/libexttextcat/", "/usr/local/share/libexttextcat/"]

    /// langdetect's 55 languages.
    static let langdetectLanguages: Set<String> = [
        "af", "ar", "bg", "bn", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "gu", "he",
        "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "lt", "lv", "mk", "ml", "mr", "ne", "nl", "no", "pa", "pl",
        "pt", "ro", "ru", "sk", "sl", "so", "sq", "sv", "sw", "ta", "te", "th", "tl", "tr", "uk", "ur", "vi",
        "zh-cn", "zh-tw",
    ]

    /// The fingerprints of langdetect's languages that libexttextcat-data has, in the order of its
    /// `fpdb.conf` (most spoken first: the first of equal distances wins).
    private let languages: [(code: String, fingerprint: Fingerprint)]

    private init?() {
        for directory in Self.fingerprintDirectories {
            guard let configuration = try? String(contentsOfFile: directory + "fpdb.conf", encoding: .utf8) else { continue }
            var languages: [(String, Fingerprint)] = []
            for line in configuration.split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard fields.count >= 2 else { continue }
                let code = Self.code(fromFingerprint: String(fields[1]))
                guard Self.langdetectLanguages.contains(code),
                    let fingerprint = Fingerprint(reading: directory + fields[0], name: String(fields[1]))
                else { continue }
                languages.append((code, fingerprint))
            }
            guard !languages.isEmpty else { continue }
            self.languages = languages
            return
        }
        return nil
    }

    /// `detect` of the text's code points (for the grading benchmark's agreement with langdetect).
    package func detect(_ text: String) -> String? { detect(text.scalars) }

    /// The language code langdetect would most likely report, or nil when langdetect would
    /// raise (no features) — callers treat nil as IFEval does.
    func detect(_ text: Scalars) -> String? {
        let cleaned = Self.langdetectText(text)
        guard cleaned.contains(where: PythonText.isAlpha) else { return nil }
        if let byScript = Self.languageByScript(cleaned) { return byScript }
        return nearest(String(scalars: cleaned).lowercased()) ?? "unknown"
    }

    /// The language whose fingerprint is nearest to the text's; nil when the text has too few
    /// n-grams for a fingerprint.
    private func nearest(_ text: String) -> String? {
        guard let unknown = Fingerprint(of: text) else { return nil }
        var best: (distance: Int32, code: String?) = (.max, nil)
        for (code, fingerprint) in languages {
            // fp_Compare stops (returning INT_MAX) once the distance exceeds the best so far.
            let distance = fp_Compare(fingerprint.handle, unknown.handle, best.distance)
            if distance < best.distance { best = (distance, code) }
        }
        return best.code
    }

    /// `en--utf8` → `en`, `zh-CN-utf8` → `zh-cn`, `nb--utf8` → `no`.
    static func code(fromFingerprint name: String) -> String {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let language = parts.first?.lowercased() ?? name
        switch language {
        case "zh": return parts.count > 1 && parts[1].uppercased() == "TW" ? "zh-tw" : "zh-cn"
        case "nb", "nn": return "no"
        default: return language
        }
    }

    /// The text langdetect looks at: URLs and e-mail addresses blanked, runs of spaces collapsed,
    /// the first 10,000 characters, and Latin letters dropped when other scripts dominate.
    static func langdetectText(_ text: Scalars) -> Scalars {
        var blanked = text
        blankURLs(&blanked)
        blankEmails(&blanked)
        var collapsed = Scalars()
        var previous: Unicode.Scalar = "\0"
        for c in blanked {
            if collapsed.count >= 10_000 { break }
            if c != " " || previous != " " { collapsed.append(c) }
            previous = c
        }
        var latin = 0, nonLatin = 0
        for c in collapsed {
            if c.value >= 0x41 && c.value <= 0x7A {
                latin += 1
            } else if c.value >= 0x300 && !(0x1E00...0x1EFF).contains(c.value) {
                nonLatin += 1
            }
        }
        if latin * 2 < nonLatin {
            collapsed.removeAll { $0.value >= 0x41 && $0.value <= 0x7A }
        }
        return collapsed
    }

    private static func isASCIIAlphanumeric(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        return (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v)
    }

    private static func isURLCharacter(_ c: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(c) || "-_.?&~;+=/#".unicodeScalars.contains(c)
    }

    /// `https?://[-_.?&~;+=/#0-9A-Za-z]{1,2076}` → space.
    private static func blankURLs(_ s: inout Scalars) {
        var i = 0
        while i + 7 < s.count {
            guard s[i] == "h", s[i + 1] == "t", s[i + 2] == "t", s[i + 3] == "p" else {
                i += 1
                continue
            }
            var j = i + 4
            if s[j] == "s" { j += 1 }
            guard j + 3 < s.count, s[j] == ":", s[j + 1] == "/", s[j + 2] == "/" else {
                i += 1
                continue
            }
            var k = j + 3
            while k < s.count && k - (j + 3) < 2076 && isURLCharacter(s[k]) { k += 1 }
            guard k > j + 3 else {
                i += 1
                continue
            }
            s.replaceSubrange(i..<k, with: [" "])
            i += 1
        }
    }

    private static func isMailCharacter(_ c: Unicode.Scalar, dot: Bool) -> Bool {
        isASCIIAlphanumeric(c) || c == "-" || c == "_" || (dot && c == ".")
    }

    /// `[-_.0-9A-Za-z]{1,64}@[-_0-9A-Za-z]{1,255}[-_.0-9A-Za-z]{1,255}` → space (approximately:
    /// the longest address around each `@`).
    private static func blankEmails(_ s: inout Scalars) {
        var i = 0
        while i < s.count {
            guard s[i] == "@" else {
                i += 1
                continue
            }
            var start = i
            while start > 0 && i - start < 64 && isMailCharacter(s[start - 1], dot: true) { start -= 1 }
            var end = i + 1
            if end < s.count && isMailCharacter(s[end], dot: false) {
                end += 1
                while end < s.count && isMailCharacter(s[end], dot: true) { end += 1 }
            }
            if start < i && end - i >= 3 {
                s.replaceSubrange(start..<end, with: [" "])
                i = start + 1
            } else {
                i += 1
            }
        }
    }

    /// A language fixed by the dominant script of the letters, for scripts langdetect
    /// attributes to a single language; nil when the script is shared.
    static func languageByScript(_ text: Scalars) -> String? {
        var counts: [String: Int] = [:]
        var letters = 0
        var kana = 0
        for c in text where PythonText.isAlpha(c) {
            letters += 1
            switch c.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF: kana += 1
            case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: counts["ko", default: 0] += 1
            case 0x0E00...0x0E7F: counts["th", default: 0] += 1
            case 0x0370...0x03FF, 0x1F00...0x1FFF: counts["el", default: 0] += 1
            case 0x0590...0x05FF: counts["he", default: 0] += 1
            case 0x0C00...0x0C7F: counts["te", default: 0] += 1
            case 0x0B80...0x0BFF: counts["ta", default: 0] += 1
            case 0x0C80...0x0CFF: counts["kn", default: 0] += 1
            case 0x0D00...0x0D7F: counts["ml", default: 0] += 1
            case 0x0A80...0x0AFF: counts["gu", default: 0] += 1
            case 0x0A00...0x0A7F: counts["pa", default: 0] += 1
            case 0x0980...0x09FF: counts["bn", default: 0] += 1
            default: break
            }
        }
        guard letters > 0 else { return nil }
        if kana * 10 >= letters { return "ja" }
        guard let (language, count) = counts.max(by: { $0.value < $1.value }), count * 2 > letters else { return nil }
        return language
    }
}

/// One libexttextcat n-gram fingerprint (`fp_*`), freed with its owner. Read-only once made, so
/// one serves any number of threads.
private final class Fingerprint: Sendable {
    /// Most n-grams kept, as libexttextcat's own classifier uses (MAXNGRAMS).
    static let maximumNGrams: UInt32 = 400

    nonisolated(unsafe) let handle: UnsafeMutableRawPointer

    /// A language's fingerprint from its `.lm` file; nil when it cannot be read.
    init?(reading path: String, name: String) {
        guard let handle = fp_Init(name) else { return nil }
        guard fp_Read(handle, path, Int32(Self.maximumNGrams)) != 0 else {
            fp_Done(handle)
            return nil
        }
        self.handle = handle
    }

    /// The fingerprint of `text` (UTF-8 aware, as libexttextcat's classifier makes it); nil
    /// when the text yields no n-gram.
    init?(of text: String) {
        guard let handle = fp_Init(nil) else { return nil }
        fp_SetProperty(handle, TCPROP_UTF8AWARE, Int32(TC_TRUE.rawValue))
        fp_SetProperty(handle, TCPROP_MINIMUM_DOCUMENT_SIZE, 1)
        var utf8 = Array(text.utf8CString)
        let created = utf8.withUnsafeMutableBufferPointer { buffer in
            fp_Create(handle, buffer.baseAddress, UInt32(buffer.count - 1), Self.maximumNGrams)
        }
        guard created != 0 else {
            fp_Done(handle)
            return nil
        }
        self.handle = handle
    }

    deinit { fp_Done(handle) }
}
