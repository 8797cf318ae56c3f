import NextUpCore

/// A prompt open at the bottom of the screen. It belongs to one task (except
/// add and filter) and, when submitted, writes only the field it edits.
public struct Prompt: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case add(toNextUp: Bool)
        case title(TaskID)
        case duration(TaskID)
        case category(TaskID)
        case filter
    }

    public var kind: Kind
    public var editor: LineEditor
    /// The text the prompt opened with (the field's value then), for undo.
    public var original: String
    /// A problem with the last submitted text ("duration must look like …");
    /// the prompt stays open until the text is fixed or the prompt cancelled.
    public var error: String?

    public init(kind: Kind, text: String = "") {
        self.kind = kind
        self.editor = LineEditor(text)
        self.original = text
    }

    /// The words before the text field.
    public var label: String {
        switch kind {
        case .add(let toNextUp): return toNextUp ? "Add to Next Up: " : "Add: "
        case .title: return "Title: "
        case .duration: return "Duration (30m, 1h30m, 90; empty = unset): "
        case .category: return "Category (empty = unset): "
        case .filter: return "Filter (text, cat:NAME, tag:NAME, is:tbd; empty = all): "
        }
    }
}
