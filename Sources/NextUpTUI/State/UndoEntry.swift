import NextUpCore

/// One edit of this session that `z` can take back (on the undo stack), or
/// that `Z` can make again (on the redo stack).
///
/// Contract: ``inverse`` is written only if every field in ``written`` still
/// holds the version this session's write left there; otherwise nothing is
/// written and the person is told what the field holds now and who wrote it.
public struct UndoEntry: Equatable, Sendable {
    /// The write that takes the change back (for a redo entry: makes it again).
    public var inverse: Write
    /// The write that made the change: what the other stack gets once
    /// ``inverse`` is written.
    public var original: Write
    /// Words for the status line ("urgency of “Call Bob”").
    public var description: String
    /// The versions the change left on the fields it wrote (nil: never
    /// written), filled in once the write succeeded.
    public var written: [TaskField: Version?]

    public init(inverse: Write, original: Write, description: String, written: [TaskField: Version?] = [:]) {
        self.inverse = inverse
        self.original = original
        self.description = description
        self.written = written
    }

    /// The entry for the other stack, once ``inverse`` was written and left
    /// `versions` on its fields.
    public func flipped(leaving versions: [TaskField: Version?]) -> UndoEntry {
        UndoEntry(inverse: original, original: inverse, description: description, written: versions)
    }
}
