import ArgumentParser
import NextUpCore
import NextUpStore

/// The shared shape of `done`, `undone`, `delete`, `restore`: resolve every
/// id first (one bad id changes nothing), then apply one intent to each.
protocol TaskStateCommand: ParsableCommand {
    var global: GlobalOptions { get }
    var ids: [String] { get }
    /// What the change is called in output (`done`, `restored`, …).
    static var verb: String { get }
    /// What an unchanged task is said to be already.
    static var already: String { get }
    static func apply(_ store: TaskStore, _ id: TaskID) throws -> TaskStore.WriteResult
}

extension TaskStateCommand {
    func run() throws { try runEach() }

    /// Applies the intent to every task named.
    func runEach() throws {
        let context = try CommandContext.open(global)
        let tasks = try context.resolveAll(ids)
        var changed = false
        for task in tasks {
            let result = try Self.apply(context.store, task.id)
            let label = "\(task.id.short) \(Sanitizer.visible(task.title))"
            if result.isChange { changed = true; print("\(Self.verb): \(label)") } else { print("already \(Self.already): \(label)") }
        }
        if changed { context.didChangeTasks() }
    }
}

struct DoneCommand: TaskStateCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark tasks done.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Task ids or unique prefixes.") var ids: [String]
    static let verb = "done"
    static let already = "done"
    static func apply(_ store: TaskStore, _ id: TaskID) throws -> TaskStore.WriteResult { try store.complete(id) }
}

struct UndoneCommand: TaskStateCommand {
    static let configuration = CommandConfiguration(commandName: "undone", abstract: "Mark tasks not done.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Task ids or unique prefixes.") var ids: [String]
    static let verb = "reopened"
    static let already = "open"
    static func apply(_ store: TaskStore, _ id: TaskID) throws -> TaskStore.WriteResult { try store.reopen(id) }
}

struct DeleteCommand: TaskStateCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete tasks (restorable).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Task ids or unique prefixes.") var ids: [String]
    static let verb = "deleted"
    static let already = "deleted"
    static func apply(_ store: TaskStore, _ id: TaskID) throws -> TaskStore.WriteResult { try store.delete(id) }
}

struct RestoreCommand: TaskStateCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Restore deleted tasks, or an earlier value from a task's history.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Task ids or unique prefixes.") var ids: [String]
    @Option(help: ArgumentHelp("Write back the value of this entry of `show ID --history` (one task), only while the field still holds what that history showed.", valueName: "E"))
    var entry: String?

    func run() throws {
        guard let entry else { return try runEach() }
        guard ids.count == 1 else { throw CLIError("restore --entry takes one task") }
        let context = try CommandContext.open(global)
        let task = try context.store.resolve(ids[0])
        let result: TaskStore.WriteResult
        do {
            result = try context.store.restoreHistoryEntry(task.id, handle: entry)
        } catch let error as HistoryRestoreError {
            throw CLIError(error.description)
        } catch let stale as StaleWrite {
            throw CLIError("\(stale.field.spokenName) of \(task.id.short) changed meanwhile: it is now \(stale.field.words(for: stale.current)); show the history again")
        }
        guard let change = result.changes.first else { return print("already holds that value: \(task.id.short) \(Sanitizer.visible(result.task.title))") }
        print("restored \(HistoryText.change(change.field, old: nil, new: change.value)): \(task.id.short) \(Sanitizer.visible(result.task.title))")
        context.didChangeTasks()
    }
    static let verb = "restored"
    static let already = "present"
    static func apply(_ store: TaskStore, _ id: TaskID) throws -> TaskStore.WriteResult { try store.restore(id) }
}
