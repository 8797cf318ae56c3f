import NextUpCore

/// What the lists are narrowed to: text in the title, a category, a tag, TBD only.
///
/// Typed in the filter prompt as words: `cat:NAME` (or `#NAME`, quotes allowed
/// for names with spaces: `cat:"Deep Work"`), `tag:NAME` (or `+NAME`),
/// `is:tbd`, and any other words as text that must all appear in the title
/// (case-insensitive).
public struct ListFilter: Equatable, Sendable {
    public var text: String = ""
    public var category: String?
    public var tbdOnly: Bool = false
    public var tag: String?

    public init(text: String = "", category: String? = nil, tbdOnly: Bool = false, tag: String? = nil) {
        self.text = text
        self.category = category
        self.tbdOnly = tbdOnly
        self.tag = tag
    }

    public var isEmpty: Bool { text.isEmpty && category == nil && !tbdOnly && tag == nil }

    /// Parses the filter prompt's text.
    public static func parse(_ query: String) -> ListFilter {
        var filter = ListFilter()
        var words: [String] = []
        for token in tokens(query) {
            let lower = token.lowercased()
            if lower == "is:tbd" || lower == "tbd:" {
                filter.tbdOnly = true
            } else if lower.hasPrefix("tag:") || (token.hasPrefix("+") && token.count > 1) {
                let name = token.hasPrefix("+") ? String(token.dropFirst()) : String(token.dropFirst(4))
                if !name.isEmpty { filter.tag = name }
            } else if lower.hasPrefix("cat:") || lower.hasPrefix("category:") || (token.hasPrefix("#") && token.count > 1) {
                let name = token.hasPrefix("#") ? String(token.dropFirst()) : String(token[token.index(after: token.firstIndex(of: ":")!)...])
                if !name.isEmpty { filter.category = name }
            } else {
                words.append(token)
            }
        }
        filter.text = words.joined(separator: " ")
        return filter
    }

    /// The filter written back in prompt syntax (round-trips through ``parse(_:)``).
    public var query: String {
        var parts: [String] = []
        if !text.isEmpty { parts.append(text) }
        if let category { parts.append(category.contains(" ") ? "cat:\"\(category)\"" : "cat:\(category)") }
        if let tag { parts.append("tag:\(tag)") }
        if tbdOnly { parts.append("is:tbd") }
        return parts.joined(separator: " ")
    }

    /// The text's words; each must occur in the title.
    public var words: [String] { text.split(separator: " ").map(String.init) }

    /// Whether a task passes. Text words must all occur in the title; text
    /// matches by ``TextMatch`` (Unicode case folding), as the store's
    /// listing and the command line's `list --category` do.
    public func matches(_ task: TaskItem) -> Bool {
        if tbdOnly && !task.isTBD { return false }
        if let category, !(task.category.map { TextMatch.same($0, category) } ?? false) { return false }
        if let tag, !task.hasTag(tag) { return false }
        if !text.isEmpty {
            let title = TextMatch.fold(task.title)
            for word in words where !TextMatch.folded(title, contains: TextMatch.fold(word)) { return false }
        }
        return true
    }

    static func tokens(_ query: String) -> [String] {
        var out: [String] = []
        var current = ""
        var quoted = false
        for c in query {
            if c == "\"" { quoted.toggle(); continue }
            if c == " " && !quoted {
                if !current.isEmpty { out.append(current); current = "" }
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}
