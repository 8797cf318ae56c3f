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
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark tasks done; a recurring one makes its next occurrence.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Task ids or unique prefixes.") var ids: [String]
    static let verb = "done"
    static let already = "done"
    static func apply(_ store: TaskStore, _ id: TaskID) throws -> TaskStore.WriteResult { try store.complete(id) }

    func run() throws {
        try SeriesCommands.run(global, ids, verb: Self.verb, already: Self.already) { store, task, today in
            guard task.isRecurring, task.occurrence != nil, task.isOpen else {
                let result = try Self.apply(store, task.id)
                return (result.isChange, nil)
            }
            return SeriesCommands.outcome(try store.completeOccurrence(task.id, today: today))
        }
    }
}

/// `skip` and `stop`, and `done` on an occurrence: resolve every id first,
/// then one series intent each, saying what became of the series.
enum SeriesCommands {
    static func run(_ global: GlobalOptions, _ ids: [String], verb: String, already: String,
                    _ apply: (TaskStore, TaskItem, DueDate) throws -> (changed: Bool, next: String?)) throws {
        let context = try CommandContext.open(global)
        let tasks = try context.resolveAll(ids)
        let today = FieldOptions.localToday()
        var changed = false
        for task in tasks {
            let (didChange, next) = try apply(context.store, task, today)
            let label = "\(task.id.short) \(Sanitizer.visible(task.title))"
            if didChange { changed = true; print("\(verb): \(label)") } else { print("already \(already): \(label)") }
            if let next { print(next) }
        }
        if changed { context.didChangeTasks() }
    }

    /// Whether the step changed anything, and the line about the next occurrence.
    static func outcome(_ step: TaskStore.SeriesStep) -> (Bool, String?) {
        guard let next = step.successor else { return (step.isChange, "the series has ended") }
        let due = next.due.map { " due \($0)" } ?? ""
        let made = step.madeSuccessor ? "next" : "next (already made on another machine)"
        return (step.isChange || step.madeSuccessor, "\(made): \(next.id.short) \(Sanitizer.visible(next.title))\(due)")
    }
}

struct SkipCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "skip", abstract: "Skip occurrences of recurring tasks: each is set aside and its series goes on.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Task ids or unique prefixes.") var ids: [String]

    func run() throws {
        try SeriesCommands.run(global, ids, verb: "skipped", already: "closed") { store, task, today in
            SeriesCommands.outcome(try store.skipOccurrence(task.id, today: today))
        }
    }
}

struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop the series of recurring tasks: each stays as a task of its own.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Task ids or unique prefixes.") var ids: [String]

    func run() throws {
        try SeriesCommands.run(global, ids, verb: "stopped the series of", already: "stopped") { store, task, _ in
            let step = try store.stopSeries(task.id)
            return (step.isChange, nil)
        }
    }
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
        print("restored \(TaskHistory.words(change.field, old: nil, new: change.value)): \(task.id.short) \(Sanitizer.visible(result.task.title))")
        context.didChangeTasks()
    }
    static let verb = "restored"
    static let already = "present"
    static func apply(_ store: TaskStore, _ id: TaskID) throws -> TaskStore.WriteResult { try store.restore(id) }
}
