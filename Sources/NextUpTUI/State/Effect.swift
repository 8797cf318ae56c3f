import NextUpCore

/// What the reducer asks the runtime to do after a state change.
public enum Effect: Equatable, Sendable {
    /// Perform a write; on success push `undo` (if any) on the undo stack and
    /// select the written task (for an add: the new one).
    case write(Write, undo: UndoEntry?)
    /// Perform an undo's write; nothing is pushed.
    case undo(UndoEntry)
    /// Re-read the lists from the store (filter or sort changed).
    case reload
    case syncNow
    /// Clear and repaint the whole terminal.
    case redraw
    case quit
}
