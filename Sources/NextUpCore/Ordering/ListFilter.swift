/// What a listing is narrowed to — the one filter language of the TUI's `/`
/// and the command line's `list --filter`.
///
/// Words, separated by spaces (double quotes keep spaces in one word):
/// - `cat:NAME` (or `category:NAME`, `#NAME`; `cat:"Deep Work"`),
/// - `tag:NAME` (or `+NAME`),
/// - `due:today`, `due:week` (today to this week's Sunday), `due:overdue`,
/// - `is:urgent`, `is:tbd`, `is:next` (in Next Up), `is:recurring` (an
///   occurrence of a series that goes on), `is:later` (deferred: the tasks
///   the lists leave out until their defer date, and only those),
/// - any other word: text that must appear in the title (case and accents
///   ignored, by ``TextMatch``).
/// A word `key:…` with an unknown key, or an unknown value of `due:` or
/// `is:`, is an error naming what is accepted.
///
/// The lists' rule for defer dates lives here too: a task whose defer date
/// is after `today` (``TaskItem/isDeferred(today:)``) passes no filter but
/// `is:later`, so it is in neither list and appears by itself on its date.
public struct ListFilter: Equatable, Sendable {
    public enum DueWindow: String, Equatable, Sendable, CaseIterable {
        case today, week, overdue

        /// The dates it covers, counted from `today`: (first, last), either open.
        public func range(today: DueDate) -> (from: DueDate?, through: DueDate?) {
            switch self {
            case .today: return (today, today)
            case .week: return (today, DueDate(epochDay: today.epochDay + Int64((7 - today.isoWeekday) % 7)))
            case .overdue: return (nil, DueDate(epochDay: today.epochDay - 1))
            }
        }
    }

    public var text: String = ""
    public var category: String?
    public var tbdOnly: Bool = false
    public var tag: String?
    public var urgentOnly: Bool = false
    public var nextUpOnly: Bool = false
    public var due: DueWindow?
    /// `is:later`: only deferred tasks (every other filter leaves them out).
    public var laterOnly: Bool = false
    /// `is:recurring`: only occurrences of a series that goes on.
    public var recurringOnly: Bool = false

    public init(text: String = "", category: String? = nil, tbdOnly: Bool = false, tag: String? = nil,
                urgentOnly: Bool = false, nextUpOnly: Bool = false, due: DueWindow? = nil,
                laterOnly: Bool = false, recurringOnly: Bool = false) {
        self.laterOnly = laterOnly
        self.recurringOnly = recurringOnly
        self.text = text
        self.category = category
        self.tbdOnly = tbdOnly
        self.tag = tag
        self.urgentOnly = urgentOnly
        self.nextUpOnly = nextUpOnly
        self.due = due
    }

    public var isEmpty: Bool { self == ListFilter() }

    /// The keys a filter word may start with.
    public static let keys = "cat:, tag:, due:, is:"

    /// Parses a filter's text.
    ///
    /// - Throws: ``TaskInputError`` (one line) for an unknown `key:` or value.
    public static func parse(_ query: String) throws -> ListFilter {
        var filter = ListFilter()
        var words: [String] = []
        for (token, quoted) in tokens(query) {
            if quoted {
                words.append(token)
                continue
            }
            let lower = token.lowercased()
            if token.hasPrefix("+") && token.count > 1 {
                filter.tag = String(token.dropFirst())
                continue
            }
            if token.hasPrefix("#") && token.count > 1 {
                filter.category = String(token.dropFirst())
                continue
            }
            guard let colon = token.firstIndex(of: ":"), token.startIndex != colon,
                  token[..<colon].allSatisfy({ $0.isLetter }) else {
                words.append(token)
                continue
            }
            let key = lower[..<lower.firstIndex(of: ":")!]
            let value = String(token[token.index(after: colon)...])
            switch key {
            case "cat", "category":
                guard !value.isEmpty else { throw TaskInputError("cat: needs a name (cat:Admin, cat:\"Deep Work\")") }
                filter.category = value
            case "tag":
                guard !value.isEmpty else { throw TaskInputError("tag: needs a name (tag:home)") }
                filter.tag = value
            case "due":
                guard let window = DueWindow(rawValue: value.lowercased()) else {
                    throw TaskInputError("due:\(Sanitizer.visible(value)) is not one of due:today, due:week, due:overdue")
                }
                filter.due = window
            case "is":
                switch value.lowercased() {
                case "tbd": filter.tbdOnly = true
                case "urgent": filter.urgentOnly = true
                case "next": filter.nextUpOnly = true
                case "later": filter.laterOnly = true
                case "recurring": filter.recurringOnly = true
                default:
                    throw TaskInputError("is:\(Sanitizer.visible(value)) is not one of is:urgent, is:tbd, is:next, is:recurring, is:later")
                }
            case "tbd" where value.isEmpty:
                filter.tbdOnly = true
            default:
                throw TaskInputError("unknown filter '\(Sanitizer.visible(String(token[...colon])))': use \(keys) or words of the title (quote a word with a colon)")
            }
        }
        filter.text = words.joined(separator: " ")
        return filter
    }

    /// The filter written back in its own syntax (round-trips through ``parse(_:)``).
    public var query: String {
        var parts: [String] = []
        if !text.isEmpty { parts.append(text) }
        if let category { parts.append(category.contains(" ") ? "cat:\"\(category)\"" : "cat:\(category)") }
        if let tag { parts.append(tag.contains(" ") ? "tag:\"\(tag)\"" : "tag:\(tag)") }
        if let due { parts.append("due:\(due.rawValue)") }
        if urgentOnly { parts.append("is:urgent") }
        if tbdOnly { parts.append("is:tbd") }
        if nextUpOnly { parts.append("is:next") }
        if recurringOnly { parts.append("is:recurring") }
        if laterOnly { parts.append("is:later") }
        return parts.joined(separator: " ")
    }

    /// The text's words; each must occur in the title.
    public var words: [String] { text.split(separator: " ").map(String.init) }

    /// Whether a task passes; `today` is the caller's local date (what
    /// `due:` counts from and defer dates compare with — without it no task
    /// passes a `due:` filter or `is:later`, and none is left out as deferred).
    /// Text matches by ``TextMatch`` (case and accents ignored), as the store's
    /// listing does.
    public func matches(_ task: TaskItem, today: DueDate? = nil) -> Bool {
        if tbdOnly && !task.isTBD { return false }
        if urgentOnly && task.urgency != .urgent { return false }
        if nextUpOnly && !task.isNextUp { return false }
        if recurringOnly && !task.isRecurring { return false }
        if let today { if task.isDeferred(today: today) != laterOnly { return false } } else if laterOnly { return false }
        if let due {
            guard let today, let date = task.due else { return false }
            let (from, through) = due.range(today: today)
            if let from, date < from { return false }
            if let through, through < date { return false }
        }
        if !categoryMatches(task.category) { return false }
        if let tag, !task.hasTag(tag) { return false }
        if !text.isEmpty && !titleMatches(folded: TextMatch.fold(task.title), words: foldedWords) { return false }
        return true
    }

    /// The text's words, each folded by ``TextMatch/fold(_:)``: what
    /// ``titleMatches(folded:words:)`` takes (fold them once per filter, not
    /// once per task).
    public var foldedWords: [String] { words.map(TextMatch.fold) }

    /// The title part of ``matches(_:today:)``: whether a title already folded
    /// by ``TextMatch/fold(_:)`` holds every one of `foldedWords` (this
    /// filter's ``foldedWords``). The TUI narrows its lists with it, so the
    /// rule stays here.
    public func titleMatches(folded title: String, words foldedWords: [String]) -> Bool {
        // A native string's bytes are read in place, without a copy of the string.
        title.utf8.withContiguousStorageIfAvailable { bytes in foldedWords.allSatisfy { TextMatch.folded(bytes, contains: $0) } }
            ?? foldedWords.allSatisfy { TextMatch.folded(title, contains: $0) }
    }

    /// The category part of ``matches(_:today:)``: with `cat:`, only a task
    /// whose category it matches (``TextMatch/matches(_:name:)``).
    public func categoryMatches(_ taskCategory: String?) -> Bool {
        guard let category else { return true }
        return taskCategory.map { TextMatch.matches($0, name: category) } ?? false
    }

    /// Whether every task `other` passes is sure to pass this filter too,
    /// from the filters alone: the same filter but for the words and the
    /// category, the same category (``TextMatch/matches(_:name:)``) or none in
    /// `other`, and each of `other`'s words (folded) inside one of this
    /// filter's words. Then this filter's tasks are `other`'s tasks narrowed
    /// by ``titleMatches(folded:words:)`` and ``categoryMatches(_:)`` —
    /// typing on at the end of a word, or adding a word, narrows.
    public func narrows(_ other: ListFilter) -> Bool {
        var mine = self, theirs = other
        mine.text = ""
        theirs.text = ""
        mine.category = nil
        theirs.category = nil
        guard mine == theirs else { return false }
        if let old = other.category {
            guard let new = category, TextMatch.matches(new, name: old) else { return false }
        }
        let words = foldedWords
        return other.foldedWords.allSatisfy { old in words.contains { TextMatch.folded($0, contains: old) } }
    }

    /// The words, quotes removed, each with whether it began with a quote
    /// (`"re:port"` is text, never a key).
    static func tokens(_ query: String) -> [(String, Bool)] {
        var out: [(String, Bool)] = []
        var current = ""
        var quoted = false, startedQuoted = false
        for c in query {
            if c == "\"" {
                if current.isEmpty && !quoted { startedQuoted = true }
                quoted.toggle()
                continue
            }
            if c == " " && !quoted {
                if !current.isEmpty { out.append((current, startedQuoted)) }
                current = ""
                startedQuoted = false
            } else {
                current.append(c)
            }
        }
        if !current.isEmpty { out.append((current, startedQuoted)) }
        return out
    }
}
