/// What each setting of a nextup config file holds, checked on the entries
/// ``ConfigSyntax`` read, so that a value of the wrong kind is named by its
/// key and line in words (`line 3: peer should be a folder path in quotes`)
/// and a key nextup does not know is noticed, not silently ignored.
enum ConfigSchema {
    struct Setting {
        /// The `[table]` it belongs in (nil: the top of the file).
        let table: String?
        let key: String
        /// What the value should be, in words.
        let want: String
        let accepts: @Sendable (ConfigSyntax.Kind) -> Bool
    }

    static let text: @Sendable (ConfigSyntax.Kind) -> Bool = { $0 == .string }
    static let texts: @Sendable (ConfigSyntax.Kind) -> Bool = { kind in
        if case .list(let items) = kind { return items.allSatisfy { $0 == .string } }
        return false
    }

    static let settings: [Setting] = [
        Setting(table: nil, key: "peer", want: "a folder path in quotes", accepts: text),
        Setting(table: nil, key: "vdir", want: "a folder path in quotes", accepts: text),
        Setting(table: nil, key: "categories", want: "a list of names in quotes, like [\"Home\", \"Work\"]", accepts: texts),
        Setting(table: nil, key: "keys", want: "a [keys] table, not a value", accepts: { _ in false }),
        Setting(table: nil, key: "taskwarrior", want: "a [taskwarrior] table, not a value", accepts: { _ in false }),
        Setting(table: "taskwarrior", key: "category", want: "\"project\" or \"top-project\"", accepts: text),
        Setting(table: "taskwarrior", key: "urgency_from", want: "a tag or UDA name in quotes", accepts: text),
        Setting(table: "taskwarrior", key: "duration_from", want: "a UDA name in quotes", accepts: text),
        Setting(table: nil, key: "history", want: "a [history] table, not a value", accepts: { _ in false }),
        Setting(table: "history", key: "keep", want: "\"forever\" or a number of days in quotes, like \"90d\"", accepts: text),
    ]

    /// Tables whose keys are free (checked elsewhere: `[keys]` by the key map).
    static let freeTables: [String: String] = ["keys": "key names in quotes, like \"q, Q\""]

    /// Throws the first entry whose value is of the wrong kind; returns one
    /// notice per key (or table) nextup does not know, with the known name
    /// it is closest to when one is near.
    static func check(_ entries: [ConfigSyntax.Entry]) throws -> [(line: Int, notice: String)] {
        var notices: [(line: Int, notice: String)] = []
        var unknownTables: Set<String> = []
        let tables = Set(settings.compactMap(\.table)).union(freeTables.keys)
        for entry in entries {
            let name = entry.table.map { "\($0).\(entry.key)" } ?? entry.key
            if let table = entry.table, let want = freeTables[table] {
                guard entry.kind == .string else {
                    throw ConfigSyntax.Problem(line: entry.line, message: "\(name) should be \(want)")
                }
                continue
            }
            if let table = entry.table, !tables.contains(table) {
                if unknownTables.insert(table).inserted {
                    notices.append((entry.line, "[\(table)] is not a nextup table" + suggestion(table, among: tables.map { $0 })))
                }
                continue
            }
            guard let setting = settings.first(where: { $0.table == entry.table && $0.key == entry.key }) else {
                let known = settings.filter { $0.table == entry.table }.map(\.key)
                let place = entry.table.map { " in [\($0)]" } ?? ""
                notices.append((entry.line, "unknown setting '\(entry.key)'\(place)" + suggestion(entry.key, among: known)))
                continue
            }
            guard setting.accepts(entry.kind) else {
                throw ConfigSyntax.Problem(line: entry.line, message: "\(name) should be \(setting.want)")
            }
        }
        return notices
    }

    /// " (did you mean peer?)" when `word` is within two edits of a known name.
    static func suggestion(_ word: String, among known: [String]) -> String {
        let near = known.map { ($0, distance(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
        return near.map { " (did you mean \($0.0)?)" } ?? ""
    }

    /// The Levenshtein distance between two short names.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let kept = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = kept
            }
        }
        return row[b.count]
    }
}
