/// Levenshtein edit distance between two strings, by characters.
public func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// The longest word `suggestions` compares: every name it suggests is far shorter, and the edit
/// distance costs the product of the lengths, so a megabyte of misspelled "name" must not be
/// compared with every candidate (validation stays linear in the input).
public let longestSuggestedWord = 64

/// The candidates closest to `word` (case-insensitively), best first: those within a third of the
/// word's length in edits, or sharing a prefix with it. Empty when nothing is close, and for a
/// word longer than `longestSuggestedWord` characters.
public func suggestions(for word: String, among candidates: [String], limit: Int = 3) -> [String] {
    guard word.utf8.count <= longestSuggestedWord * 4, word.count <= longestSuggestedWord else { return [] }
    let lowered = word.lowercased()
    let budget = max(2, lowered.count / 3)
    return
        candidates
        .map { (candidate: $0, distance: editDistance(lowered, $0.lowercased())) }
        .filter { $0.distance <= budget || (lowered.count >= 3 && $0.candidate.lowercased().hasPrefix(lowered)) }
        .sorted { ($0.distance, $0.candidate) < ($1.distance, $1.candidate) }
        .prefix(limit)
        .map(\.candidate)
}

/// The path the user probably meant when `path` does not exist: from the left, each component
/// that is not in its folder is replaced by the closest name that is (`suggestions`), so that
/// `suite/smoke.yml` becomes `suites/smoke.yaml`. `entries(folder)` lists a folder's names (nil:
/// not a folder); the caller does the I/O, Core stays pure. Nil when `path` exists or some
/// component has nothing close.
public func nearestPath(to path: String, entries: (String) -> [String]?) -> String? {
    let absolute = path.hasPrefix("/")
    let components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    guard !components.isEmpty, components.count <= 32 else { return nil }
    var folder = absolute ? "/" : "."
    var corrected: [String] = []
    var changed = false
    for component in components {
        guard let names = entries(folder) else { return nil }
        let chosen: String
        if component == "." || component == ".." || names.contains(component) {
            chosen = component
        } else if let near = suggestions(for: component, among: names, limit: 1).first {
            chosen = near
            changed = true
        } else {
            return nil
        }
        corrected.append(chosen)
        folder = folder == "/" ? "/" + chosen : folder == "." ? chosen : folder + "/" + chosen
    }
    guard changed else { return nil }
    return (absolute ? "/" : "") + corrected.joined(separator: "/")
}
