import NextUpCore

/// What the reducer asks the runtime to do after a state change.
public enum Effect: Equatable, Sendable {
    /// Perform a write, only if the fields in `seen` still hold the versions
    /// the UI saw (nil: never written); on success push `undo` (if any) on the
    /// undo stack and select the written task (for an add: the new one). A
    /// stale write comes back as ``Event/stale(_:_:)``.
    case write(Write, seen: [TaskField: Version?], undo: UndoEntry?)
    /// Take back an undo-stack entry (conditionally, see ``UndoEntry``).
    case undo(UndoEntry)
    /// Make a redo-stack entry again (conditionally).
    case redo(UndoEntry)
    /// Open `text` in the person's editor (`$EDITOR`, else `vi`) with the
    /// screen suspended; what they save comes back as
    /// ``Event/notesEdited(_:text:original:seen:)``, to be written only if
    /// the fields in `seen` still hold those versions.
    case editNotes(TaskID, text: String, original: String, seen: [TaskField: Version?])
    /// Read the category and tag names in use, for a prompt's completion:
    /// they come back as ``Event/namesLoaded(categories:tags:)``.
    case loadNames
    /// Read the history of a task for the detail view's changes pane: it
    /// comes back as ``Event/changesLoaded(_:_:)``.
    case loadChanges(TaskID)
    /// Re-read the lists from the store (filter or sort changed).
    case reload
    case syncNow
    /// Clear and repaint the whole terminal.
    case redraw
    case quit
}
