import Foundation
import NextUpCore

extension TaskwarriorMapping {
    /// The notes of a task with `annotations`: their texts, one after the
    /// other, each on its own line(s), without dates (the dates stay beside,
    /// in the kept attributes).
    static func notes(_ annotations: [TaskwarriorTask.Annotation]) -> String {
        (try? TaskText.notes(annotations.map(\.description).joined(separator: "\n"))) ?? ""
    }

    /// The annotations that say `notes`, given the ones the task came with
    /// (`kept`) and when the notes were last written (`editTime`, ms).
    ///
    /// Contract: the texts, joined by newlines, read back as `notes`
    /// (``notes(_:)`` of the result is `notes`); an annotation whose text is
    /// still in the notes, in its place, goes out as it came (text and
    /// `entry`, byte for byte); the rest of the notes becomes new annotations,
    /// one per line (blank lines go with the line above, or below after a
    /// kept annotation), dated at
    /// `editTime`, or just after the annotation above when that is later.
    /// Entries strictly increase down the notes, because Taskwarrior lists
    /// annotations by date: an annotation moved above an older one is dated
    /// anew.
    static func annotations(for notes: String, kept: [TaskwarriorTask.Annotation], editTime: Int64,
                            _ options: Options) -> [TaskwarriorTask.Annotation] {
        if notes.isEmpty { return [] }
        if Self.notes(kept) == notes, zip(kept, kept.dropFirst()).allSatisfy({ $0.entry < $1.entry }) { return kept }
        // 1. The notes cut into pieces: a kept annotation where its text
        //    (or its line as an earlier nextup wrote it, date first) stands,
        //    else one line and the blank lines after it.
        var pieces: [(text: String, entry: Int64?)] = []
        var used = Array(repeating: false, count: kept.count)
        var rest = Substring(notes)
        while !rest.isEmpty {
            var matched = false
            // A blank line goes with the next line's new annotation (Taskwarrior drops empty ones).
            let blankFirst = rest.prefix { $0 != "\n" }.allSatisfy(\.isWhitespace)
            for (i, a) in kept.enumerated() where !used[i] && !blankFirst {
                let forms = [TaskText.normalized(a.description), noteTime(a.entry, options) + "  " + TaskText.normalized(a.description)]
                for form in forms {
                    var candidate = Substring(form)
                    if pieces.isEmpty { candidate = candidate.drop(while: \.isWhitespace) }
                    let fits = rest.hasPrefix(candidate) && (rest.count == candidate.count || rest.dropFirst(candidate.count).first == "\n")
                    let fitsTrimmed = !fits && String(candidate).trimmingCharacters(in: .whitespacesAndNewlines) == String(rest) && !rest.isEmpty
                    guard !candidate.isEmpty, fits || fitsTrimmed else { continue }
                    used[i] = true
                    pieces.append((a.description, a.entry))
                    rest = fitsTrimmed ? "" : rest.dropFirst(candidate.count).dropFirst()
                    matched = true
                    break
                }
                if matched { break }
            }
            if matched { continue }
            var end = rest.startIndex
            while let newline = rest[end...].firstIndex(of: "\n"), rest[end..<newline].allSatisfy(\.isWhitespace) {
                end = rest.index(after: newline)
            }
            end = rest[end...].firstIndex(of: "\n") ?? rest.endIndex
            while end < rest.endIndex {
                let next = rest[rest.index(after: end)...]
                let line = next.prefix { $0 != "\n" }
                guard line.allSatisfy(\.isWhitespace), line.endIndex < next.endIndex else { break }
                end = line.endIndex
            }
            pieces.append((String(rest[..<end]), nil))
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
        }
        // 2. Which kept entries stay: each later than the last one kept, with
        //    room for the new pieces between them (seconds).
        var fixed = pieces.map { $0.entry.map { $0 / 1000 } }
        var last = Int64.min / 2, newSince: Int64 = 0
        for i in fixed.indices {
            if let e = fixed[i], e > last + newSince { last = e; newSince = 0 } else { fixed[i] = nil; newSince += 1 }
        }
        // 3. New pieces dated at the edit's time where it fits, else just
        //    after the annotation above (or before the one below).
        let edit = editTime / 1000
        var out: [TaskwarriorTask.Annotation] = []
        var i = 0
        while i < pieces.count {
            if let e = fixed[i] { out.append(.init(entry: pieces[i].entry ?? e * 1000, description: pieces[i].text)); i += 1; continue }
            var j = i
            while j < pieces.count, fixed[j] == nil { j += 1 }
            let k = Int64(j - i)
            let lo = out.last.map { $0.entry / 1000 }, hi = j < pieces.count ? fixed[j] : nil
            let start: Int64
            if (lo.map { edit > $0 } ?? true) && (hi.map { edit + k - 1 < $0 } ?? true) { start = edit }
            else if let lo { start = lo + 1 } else { start = hi! - k }
            for n in 0..<k { out.append(.init(entry: (start + n) * 1000, description: pieces[i + Int(n)].text)) }
            i = j
        }
        return out
    }
}
