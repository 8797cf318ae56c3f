import NextUpCore

/// A prompt open at the bottom of the screen. It belongs to one task (except
/// add and filter) and, when submitted, writes only the field it edits.
public struct Prompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case add(toNextUp: Bool)
        case title(TaskID)
        case duration(TaskID)
        case category(TaskID)
        case due(TaskID)
        /// Add a tag (`name`, `+name`) or remove one (`-name`).
        case tags(TaskID)
        /// Notes come from `$EDITOR`, not typed here: this prompt is only
        /// shown when their write came back stale (`e` reopens the editor).
        case notes(TaskID)
        case filter
        /// The series' rule, in words or RRULE (empty or `none`: stop).
        case recurrence(TaskID)
        case deferDate(TaskID)
        /// Asks before skipping the occurrence (`y` skips).
        case confirmSkip(TaskID)
        /// Asks before stopping the series (`y` stops).
        case confirmStop(TaskID)
        /// An edit of a repeating task waits for its answer: `t` writes it
        /// for this occurrence only, `s` for the series, Esc writes nothing.
        case seriesScope(TaskID)
    }

    public var kind: Kind
    public var editor: LineEditor
    /// The text the prompt opened with (the field's value then), for undo.
    public var original: String
    /// Per field the prompt's write depends on (its own field, and whether
    /// the task is done or deleted), the version seen when it opened.
    public var seen: [TaskField: Version?] = [:]
    /// Set when the prompt's write came back stale: the field moved on after
    /// the prompt opened. Enter does not write; the person chooses.
    public var conflict: Conflict?
    /// A problem with the last submitted text ("duration must look like …");
    /// the prompt stays open until the text is fixed or the prompt cancelled.
    public var error: String?
    /// Names Tab completes to (categories, tags in use), loaded when the
    /// prompt opens (``Event/namesLoaded(categories:tags:)``).
    public var choices: [String] = []
    /// While Tab cycles: the text typed before the first Tab, and the
    /// choice shown now. Any other key ends it.
    public var completion: Completion?
    /// The tag prompt: the task's tags when it opened (what `-name` removes).
    public var seenTags: [String] = []
    /// What Tab offers, for the status bar.
    public var hint: String?
    /// The series-scope question: the write waiting for the answer, and the
    /// prompt it came from (reopened if the write comes back stale).
    public var pending: Effect?
    public var asked: Prompt? {
        get { askedBox.first }
        set { askedBox = newValue.map { [$0] } ?? [] }
    }
    private var askedBox: [Prompt] = []

    public struct Completion: Equatable, Sendable {
        public var typed: String
        public var index: Int
    }

    public init(kind: Kind, text: String = "", seen: [TaskField: Version?] = [:]) {
        self.kind = kind
        self.editor = LineEditor(text)
        self.original = text
        self.seen = seen
    }

    /// The task the prompt edits (nil for add and filter).
    /// A yes-or-no question: one key answers it, no text is typed.
    public var isConfirmation: Bool {
        switch kind {
        case .confirmSkip, .confirmStop: return true
        default: return false
        }
    }

    public var task: TaskID? {
        switch kind {
        case .title(let id), .duration(let id), .category(let id), .due(let id), .tags(let id), .notes(let id),
             .recurrence(let id), .deferDate(let id), .confirmSkip(let id), .confirmStop(let id), .seriesScope(let id): return id
        case .add, .filter: return nil
        }
    }

    /// What changed under an open prompt, in words, and the version to
    /// expect once the person has seen it.
    public struct Conflict: Equatable, Sendable {
        public var field: TaskField
        /// "title is now “Renamed”, changed on another machine"
        public var text: String
        public var version: Version?
    }

    /// The words before the text field.
    public var label: String {
        switch kind {
        case .add(let toNextUp): return toNextUp ? "Add to Next Up: " : "Add: "
        case .title: return "Title: "
        case .duration: return "Duration (30m, 1h30m, 90; empty = unset): "
        case .category: return "Category (Tab completes; empty = unset): "
        case .tags: return "Tag (name adds, -name removes, Tab completes): "
        case .due: return "Due (2026-12-24, today, fri, eow, +3d; empty = unset): "
        case .notes: return "Notes: "
        case .filter: return "Filter (words, cat:, tag:, due:, is:): "
        case .recurrence: return "Repeat (every monday, monthly on the 31st, FREQ=WEEKLY;BYDAY=MO; none = stop): "
        case .deferDate: return "Defer until (2026-12-24, mon, +3d; empty = unset): "
        case .confirmSkip: return "Skip this occurrence? y skips, any other key keeps it "
        case .confirmStop: return "Stop repeating? y stops, any other key keeps it "
        case .seriesScope: return "This one only or the whole series? (t/s, Esc cancels) "
        }
    }
}
