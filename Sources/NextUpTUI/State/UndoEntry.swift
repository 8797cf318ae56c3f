import NextUpCore

/// One edit of this session that `z` can take back (on the undo stack), or
/// that `Z` can make again (on the redo stack).
///
/// Contract: ``inverse`` is written only if every field in ``written`` still
/// holds the version this session's write left there; otherwise nothing is
/// written and the person is told what the field holds now and who wrote it.
/// Once it is written, the entries deeper in the same stack that expected
/// ``prior`` expect what the inverse left instead (``relink(_:after:leaving:)``),
/// so `z z z` walks back through several changes of one field.
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
    /// The versions the change replaced (what the state held before it).
    public var prior: [TaskField: Version?]

    public init(inverse: Write, original: Write, description: String, written: [TaskField: Version?] = [:],
                prior: [TaskField: Version?] = [:]) {
        self.inverse = inverse
        self.original = original
        self.description = description
        self.written = written
        self.prior = prior
    }

    /// The entry for the other stack, once ``inverse`` was written and left
    /// `versions` on its fields.
    public func flipped(leaving versions: [TaskField: Version?]) -> UndoEntry {
        UndoEntry(inverse: original, original: inverse, description: description, written: versions, prior: written)
    }

    /// After `done`'s inverse was written, leaving `versions`: the topmost
    /// entry of `stack` for the same task and field, if it expected what
    /// `done`'s change replaced, now expects `versions` (the state is back to
    /// what it left). Any other expectation stays, and is refused later.
    public static func relink(_ stack: inout [UndoEntry], after done: UndoEntry, leaving versions: [TaskField: Version?]) {
        guard let task = done.inverse.task else { return }
        for (field, prior) in done.prior {
            guard let left = versions[field],
                  let i = stack.lastIndex(where: { $0.inverse.task == task && $0.written[field] != nil }) else { continue }
            if stack[i].written[field] == prior { stack[i].written[field] = left }
        }
    }
}
