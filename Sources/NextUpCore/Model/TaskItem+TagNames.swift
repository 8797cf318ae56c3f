extension TaskItem {
    /// The tags present, one per name: spellings that are the same name
    /// (``TextMatch/same(_:_:)``: `Home`, `home`) appear once, as the
    /// spelling written first (the oldest version; then byte order). Sorted
    /// as ``tags``. What people are shown.
    public var tagNames: [String] {
        let all = tags
        guard all.count > 1 else { return all }
        let extra = Set(duplicateTagSpellings)
        return extra.isEmpty ? all : all.filter { !extra.contains($0) }
    }

    /// The tags present that repeat a name another present tag spells first
    /// (see ``tagNames``): two machines that added `Home` and `home` at
    /// once. A local write of the task clears them (`TaskStore`), so they
    /// go with the next edit, never in a mass rewrite.
    public var duplicateTagSpellings: [String] {
        let all = tags
        guard all.count > 1 else { return [] }
        var first: [String: String] = [:]
        var extra: [String] = []
        for tag in all {
            let key = TextMatch.caseFold(tag)
            guard let kept = first[key] else {
                first[key] = tag
                continue
            }
            if precedes(tag, kept) {
                first[key] = tag
                extra.append(kept)
            } else {
                extra.append(tag)
            }
        }
        return extra
    }

    /// Whether spelling `a` was written before `b` (oldest version first,
    /// then byte order): the one kept.
    private func precedes(_ a: String, _ b: String) -> Bool {
        let va = versions[.tag(a)], vb = versions[.tag(b)]
        if let va, let vb, va != vb { return va < vb }
        if (va == nil) != (vb == nil) { return va != nil }
        return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }
}
