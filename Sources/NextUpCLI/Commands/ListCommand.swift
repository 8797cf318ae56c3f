import ArgumentParser
import Foundation
import NextUpCore
import NextUpStore

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List open tasks: Next Up, then the Backlog ranked.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Every task not deleted, done ones too.") var all = false
    @Flag(help: "Done tasks.") var done = false
    @Flag(help: "Deleted tasks.") var deleted = false
    @Flag(help: "Open tasks with an unset urgency, importance, duration or category.") var tbd = false
    @Flag(help: "Deferred tasks: open ones whose defer date is still to come (in neither list until then).") var later = false
    @Option(help: "Only tasks in this category.") var category: String?
    @Option(help: "Only tasks with this tag.") var tag: String?
    @Option(help: ArgumentHelp("Narrow as the TUI's filter does: words of the title, cat:NAME, tag:NAME, due:today|week|overdue, is:urgent|tbd|next|recurring|later.",
                               valueName: "EXPR")) var filter: String?
    @Option(help: "Order the Backlog (or, with --all/--done/--deleted, every task) by score, due, duration or created.")
    var sort: BacklogSort?
    @Option(help: "Show at most N tasks.") var limit: Int?
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        if [all, done, deleted, tbd, later].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --all, --done, --deleted, --tbd, --later")
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more") }
        if let filter {
            do { _ = try ListFilter.parse(filter) } catch { throw ValidationError("--filter: \(error)") }
        }
    }

    func run() throws {
        let scope: TaskFilter.Scope = all ? .all : done ? .done : deleted ? .deleted : tbd ? .tbd : .open
        let context = try CommandContext.open(global)
        if !json, scope == .open || scope == .tbd, let narrowing = try tableNarrowing(tbd: scope == .tbd) {
            return try Self.showTable(context.store, sort: sort ?? .score, narrowing: narrowing, limit: limit)
        }
        // The table shows no versions; JSON's `modified` is the newest of them.
        var tasks = try context.store.tasks(TaskFilter(scope: scope, category: category, tag: try tag.map(TaskText.tag), versions: json ? .newest : .none))
        // The open lists leave deferred tasks out (or, with --later, show only them).
        if filter != nil || later || scope == .open || scope == .tbd {
            var narrowing = try filter.map(ListFilter.parse) ?? ListFilter()
            narrowing.laterOnly = narrowing.laterOnly || later
            let today = FieldOptions.localToday()
            tasks.removeAll { !narrowing.matches($0, today: today) }
        }
        if let sort {
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            if scope == .open || scope == .tbd {
                // Next Up keeps its own order; the Backlog is sorted.
                tasks = tasks.filter(\.isNextUp) + TaskOrdering.sorted(tasks.filter { !$0.isNextUp }, by: sort, nowMillis: now)
            } else {
                tasks = TaskOrdering.sorted(tasks, by: sort, nowMillis: now)
            }
        }
        if let limit { tasks = Array(tasks.prefix(limit)) }
        try Self.show(tasks, json: json, empty: "no tasks")
    }

    /// The terms of this listing of open tasks as one filter; nil when
    /// `--category` or `--tag` meets the same term in `--filter` (both must
    /// hold, which one filter cannot say).
    private func tableNarrowing(tbd: Bool) throws -> TaskStore.ListNarrowing? {
        var narrowing = try filter.map(ListFilter.parse) ?? ListFilter()
        narrowing.tbdOnly = narrowing.tbdOnly || tbd
        narrowing.laterOnly = narrowing.laterOnly || later
        if let category {
            if narrowing.category != nil { return nil }
            narrowing.category = category
        }
        if let tag {
            if narrowing.tag != nil { return nil }
            narrowing.tag = try TaskText.tag(tag)
        }
        return TaskStore.ListNarrowing(narrowing, today: FieldOptions.localToday())
    }

    /// The human table of open tasks, each line made as its task is read (no
    /// list of tasks is held), at most `limit`. The lines are written one
    /// after the other into one buffer, in the order they are read; the
    /// listing's order picks them out of it.
    static func showTable(_ store: TaskStore, sort: BacklogSort, narrowing: TaskStore.ListNarrowing, limit: Int?) throws {
        let width = Terminal.width()
        var text: [UInt8] = []
        var lines = try store.listed(sort: sort, narrowing: narrowing) { task in
            let start = text.count
            TaskTable.appendLine(of: task, width: width, to: &text)
            return start..<text.count
        }
        if let limit, lines.count > limit { lines.removeLast(lines.count - limit) }
        if lines.isEmpty { print("no tasks"); return }
        var out: [UInt8] = []
        TaskTable.appendHeaderLine(width: width, to: &out)
        for line in lines {
            out.append(contentsOf: text[line])
            if out.count >= 1 << 16 {
                try Terminal.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        try Terminal.write(out)
    }

    /// Tasks as `list` and `next` print them: a JSON array, or the table
    /// cut to the terminal, or `empty` when there are none.
    static func show(_ tasks: [TaskItem], json: Bool, empty: String) throws {
        if json { return try Terminal.write(pieces: JSONOutput.pieces(tasks)) }
        if tasks.isEmpty { print(empty); return }
        try Terminal.write(TaskTable.text(tasks, width: Terminal.width()))
    }
}

struct NextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "next", abstract: "Show the Next Up list.")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try CommandContext.open(global)
        let today = FieldOptions.localToday()
        let tasks = try context.store.nextUp(versions: json ? .newest : .none).filter { ListFilter().matches($0, today: today) }
        try ListCommand.show(tasks, json: json, empty: "Next Up is empty")
    }
}

struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count", abstract: "Count open tasks.",
        discussion: "Counts what `list` shows: a task deferred until a later date is left out (`--json` gives their number as `later`)."
    )

    @OptionGroup var global: GlobalOptions
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let context = try CommandContext.open(global)
        let n = try context.store.openCounts(on: FieldOptions.localToday())
        print(json ? "{\"later\":\(n.later),\"open\":\(n.shown)}" : String(n.shown))
    }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one task.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A task id or a unique prefix of at least 4 characters.") var id: String
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Show every change of every field, newest first, with its machine; `nextup restore ID --entry E` takes a value back.") var history = false

    func run() throws {
        let context = try CommandContext.open(global)
        let task = try context.store.resolve(id)
        if history {
            let lines = try context.store.history(of: task.id)
            let text = try HistoryText(store: context.store)
            if json { print(try text.json(task, lines)) } else {
                print("history of \(task.id.short) \(Sanitizer.visible(task.title)) (newest first; the first column restores: nextup restore \(task.id.short) --entry E)")
                text.lines(lines).forEach { print("  " + $0) }
            }
            return
        }
        if json { print(JSONOutput.string(task)) } else { TaskDetail.render(task).forEach { print($0) } }
    }
}

extension BacklogSort: ExpressibleByArgument {}
