/// What a piece of text on screen means; the screen decides how it looks
/// (colours, or attributes only under `NO_COLOR`).
public enum Style: Hashable, Sendable, CaseIterable {
    case normal
    case title
    case header
    case headerFocused
    case selected
    case selectedInactive
    case done
    case changed
    case unset
    case status
    case statusProblem
    case message
    case error
    case help
    /// A due date before today, and one that is today.
    case overdue
    case dueToday
}

/// A run of text in one style.
public struct Span: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String, _ style: Style = .normal) {
        self.text = text
        self.style = style
    }
}

/// One screen line: spans that together take exactly the screen's width.
public struct ScreenLine: Hashable, Sendable {
    public var spans: [Span]

    public init(_ spans: [Span]) { self.spans = spans }

    /// The line's characters without styles.
    public var text: String { spans.map(\.text).joined() }
}

/// A whole screen: one line per terminal row, and where the cursor goes
/// (only while a prompt is open).
public struct Frame: Hashable, Sendable {
    public var lines: [ScreenLine]
    /// (row, column in cells) of the text cursor, or nil to hide it.
    public var cursor: (row: Int, col: Int)? {
        get { cursorRow.map { ($0, cursorCol) } }
        set { cursorRow = newValue?.row; cursorCol = newValue?.col ?? 0 }
    }
    private var cursorRow: Int?
    private var cursorCol = 0

    public init(lines: [ScreenLine], cursor: (row: Int, col: Int)? = nil) {
        self.lines = lines
        self.cursor = cursor
    }

    /// The plain text of every line, for tests.
    public var text: [String] { lines.map(\.text) }
}
