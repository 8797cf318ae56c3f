import ArgumentParser
import NextUpCore
import NextUpStore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List open tasks: Next Up, then the Backlog ranked.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Every task not deleted, done ones too.") var all = false
    @Flag(help: "Done tasks.") var done = false
    @Flag(help: "Deleted tasks.") var deleted = false
    @Flag(help: "Open tasks with an unset urgency, importance, duration or category.") var tbd = false
    @Option(help: "Only tasks in this category.") var category: String?
    @Option(help: "Only tasks with this tag.") var tag: String?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        if [all, done, deleted, tbd].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --all, --done, --deleted, --tbd")
        }
    }

    func run() throws {
        let scope: TaskFilter.Scope = all ? .all : done ? .done : deleted ? .deleted : tbd ? .tbd : .open
        let context = try CommandContext.open(global)
        let tasks = try context.store.tasks(TaskFilter(scope: scope, category: category, tag: try tag.map(TaskText.tag)))
        if json { try FDOutput.standardOutput { try TaskJSONWriter.stream(tasks, pretty: true, versions: false, to: &$0) }; return }
        if tasks.isEmpty { print("no tasks"); return }
        TaskTable.render(tasks, width: Terminal.width()).forEach { print($0) }
    }
}

struct NextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "next", abstract: "Show the Next Up list.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try CommandContext.open(global)
        let tasks = try context.store.nextUp()
        if json { print(try JSONOutput.string(tasks)); return }
        if tasks.isEmpty { print("Next Up is empty"); return }
        TaskTable.render(tasks, width: Terminal.width()).forEach { print($0) }
    }
}

struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "count", abstract: "Count open tasks.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try CommandContext.open(global)
        let n = try context.store.openCount()
        print(json ? "{\"open\":\(n)}" : String(n))
    }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one task.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A task id or a unique prefix of at least 4 characters.") var id: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try CommandContext.open(global)
        let task = try context.store.resolve(id)
        if json { print(try JSONOutput.string(task)) } else { TaskDetail.render(task).forEach { print($0) } }
    }
}
