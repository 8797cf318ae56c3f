import ArgumentParser
import NextUpCore
import NextUpStore

/// `nextup undo`: takes back this store's newest local change (from the
/// command line or the TUI), only while nobody changed those fields since —
/// the rule the TUI's `z` follows. Says what it undid, or what the field
/// holds now and whether this machine or another wrote it.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo this store's last change, unless it was changed again since.",
        discussion: """
            Each run takes back one change, newest first (an add is undone by \
            deleting the task, restorably). A change whose fields were changed \
            again since — by another command, the TUI or another machine — is \
            not undone: nextup says what the field holds now and changes nothing.
            """
    )
    @OptionGroup var global: GlobalOptions

    func run() throws {
        let context = try CommandContext.open(global)
        switch try context.store.undoLastChange() {
        case .nothingToUndo:
            throw CLIError("nothing to undo: no change made on this store is left to take back")
        case .refused(let task, let stale, let mine):
            let now = "\(stale.field.spokenName) is now \(stale.field.words(for: stale.current))"
            let who = mine ? "this machine" : "another machine"
            throw CLIError("cannot undo the last change to \(Self.label(task)): \(now), changed since on \(who); nothing changed")
        case .cannotUndo(let why):
            throw CLIError("cannot undo: \(why)")
        case .undoneImport(let tasks, let fields, let deleted):
            let made = deleted > 0 ? "; \(deleted) task\(deleted == 1 ? "" : "s") it made deleted (restorable)" : ""
            print("undid the import: \(fields) field\(fields == 1 ? "" : "s") of \(tasks) task\(tasks == 1 ? "" : "s") hold their earlier values again\(made)")
            context.didChangeTasks()
        case .undone(let task, let fields, let wasAdd):
            if wasAdd {
                print("undid add: \(Self.label(task)) is deleted (nextup restore \(task.id.short) brings it back)")
            } else {
                let states = fields.compactMap { Self.state($0.field, $0.to) }
                let values = fields.filter { Self.state($0.field, $0.to) == nil }
                    .map { "\($0.field.spokenName) \($0.field.words(for: $0.from)) → \($0.field.words(for: $0.to))" }
                var line = "undid: \(Self.label(task))"
                if !states.isEmpty { line += " is " + states.joined(separator: " and ") }
                if !values.isEmpty { line += (states.isEmpty ? ": " : "; ") + values.joined(separator: ", ") }
                print(line)
            }
            context.didChangeTasks()
        }
    }

    /// Where an undo left a task, in words, for the fields that say where
    /// it stands (done, deleted, Next Up); nil for any other field.
    static func state(_ field: TaskField, _ value: FieldValue) -> String? {
        switch field {
        case .done: return value == .null ? "open again" : "done again"
        case .deleted: return value == .bool(true) ? "deleted again" : "restored"
        case .nextUp: return value == .null ? "back in the Backlog" : "back in Next Up"
        default: return nil
        }
    }

    static func label(_ task: TaskItem) -> String {
        "\(task.id.short) \(TerminalWidth.truncate(Sanitizer.visible(task.title), to: 40))"
    }
}
