/// One key press, independent of any terminal library.
///
/// The ncurses screen turns `get_wch` results into keys; tests build them
/// directly. Control characters arrive as ``ctrl(_:)`` with the lowercase letter
/// (`ctrl("u")` is Ctrl-U), except the ones that have their own case.
public enum Key: Hashable, Sendable {
    case char(Character)
    case ctrl(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case backspace, delete
    case enter, escape, tab, backTab
    case function(Int)
    /// The terminal changed size; the screen reports the new size separately.
    case resize
    /// Text the terminal delivered as one paste (bracketed paste): text, never
    /// keys — a line break in it submits nothing, a letter in it runs no
    /// action.
    case paste(String)
}
