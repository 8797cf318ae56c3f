import ArgumentParser
import NextUpCore
import NextUpStore

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change fields of a task; `none` clears an attribute.",
        discussion: "Setting a field to the value it already has changes nothing (no new version)."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "A task id or a unique prefix of at least 4 characters.") var id: String
    @Option(help: "A new title.") var title: String?
    @Option(help: "urgent, not-urgent or none.") var urgency: String?
    @Option(help: "1, 2, 3 or none.") var importance: String?
    @Option(help: "30m, 1h, 1h30m, 90 or none.") var duration: String?
    @Option(help: "A category name or none.") var category: String?
    @Option(help: "YYYY-MM-DD, today, tomorrow, monday, eow, eom, +3d, 2w … or none.") var due: String?
    @Option(help: ArgumentHelp("Recur: every monday, every 2 weeks, monthly on the 31st, 3 days after done, FREQ=WEEKLY;BYDAY=MO … or none.", valueName: "rule"))
    var recur: String?
    @Option(name: .customLong("defer"), help: ArgumentHelp("Hide the task from both lists until this date (the same words as --due) or none.", valueName: "date"))
    var deferDate: String?
    @Option(help: "Free text or none.") var notes: String?
    @Option(help: ArgumentHelp("Read the notes from a file, or - for standard input.", valueName: "file")) var notesFile: String?
    @Option(name: .customLong("tag"), help: ArgumentHelp("Add a tag (repeatable).", valueName: "name")) var tags: [String] = []
    @Option(name: .customLong("untag"), help: ArgumentHelp("Remove a tag (repeatable).", valueName: "name")) var untags: [String] = []
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive, help: "Move into (--next) or out of (--no-next) Next Up.") var next: Bool?
    @Option(help: ArgumentHelp("Move the task, in Next Up, to just before this one (an id or a unique prefix).", valueName: "id"))
    var before: String?
    @Option(help: ArgumentHelp("Move the task, in Next Up, to just after this one (an id or a unique prefix).", valueName: "id"))
    var after: String?
    @Flag(help: "On a repeating task: change this occurrence only; the next one takes the series' values (without it an edit is the series').")
    var thisOnly = false

    func validate() throws {
        if notes != nil && notesFile != nil { throw ValidationError("choose one of --notes and --notes-file") }
        if before != nil && after != nil {
            throw ValidationError("choose one of --before and --after")
        }
        if (before != nil || after != nil) && next != nil {
            throw ValidationError("--before/--after reorder a task already in Next Up; use them without --next/--no-next")
        }
    }

    /// The field options by their field-table names.
    var given: [String: String] {
        ["title": title, "urgency": urgency, "importance": importance, "duration": duration, "category": category,
         "due": due, "notes": notes, "recur": recur, "defer": deferDate].compactMapValues { $0 }
    }

    /// The field values asked for, validated, in field-table order, then the tags.
    func requestedFields(current: TaskItem? = nil, notesFromFile: String? = nil) throws -> [(TaskField, FieldValue)] {
        let today = FieldOptions.localToday()
        var f = try FieldOptions.values(given, literal: notesFromFile.map { ["notes": $0] } ?? [:], today: today, due: current?.due)
        // A series started on a task without a due date begins on the rule's first date.
        if let current, let first = RecurrenceStep.firstDue(f, on: current, today: today) { f.append((.due, .string(first.description))) }
        let added = try FieldOptions.tags(tags), removed = try FieldOptions.tags(untags)
        for name in added { f.append((.tag(current?.tags.first { TextMatch.same($0, name) } ?? name), .bool(true))) }
        for name in removed {
            // Removing writes the register of the tag as the task has it.
            for tag in current?.tags.filter({ TextMatch.same($0, name) }) ?? [name] { f.append((.tag(tag), .bool(false))) }
        }
        return f
    }

    func run() throws {
        let fromFile = try notesFile.map(FieldOptions.notesFile)
        guard !given.isEmpty || fromFile != nil || !tags.isEmpty || !untags.isEmpty || next != nil || before != nil || after != nil else {
            throw CLIError("edit: say what to change (--title, --urgency, --importance, --duration, --category, --due, --recur, --defer, --notes, --notes-file, --tag/--untag, --next/--no-next, --before/--after)")
        }
        let context = try CommandContext.open(global)
        var task = try context.store.resolve(id)
        if thisOnly {
            guard task.isRecurring, task.occurrence != nil else {
                throw CLIError("edit: \(task.id.short) “\(Sanitizer.visible(task.title))” does not repeat; --this-only is for an occurrence of a series")
            }
            guard task.isOpen else { throw CLIError("edit: \(task.id.short) is \(task.isDone ? "done" : "deleted"); --this-only is for the open occurrence") }
            if recur != nil { throw CLIError("edit: a rule is the series'; leave out --this-only to change it") }
        }
        var fields = try requestedFields(current: task, notesFromFile: fromFile)
        // `--recur none` on an occurrence stops its series (as `nextup stop`).
        if fields.contains(where: { $0.0 == .recur && $0.1 == .null }), task.isRecurring, task.occurrence != nil {
            task = try context.store.stopSeries(task.id).task
            context.didChangeTasks()
            print("stopped the series of \(task.id.short) \(Sanitizer.visible(task.title)): it stays as a task of its own")
            fields.removeAll { $0.0 == .recur }
            if fields.isEmpty && next == nil && before == nil && after == nil { return }
        }
        var place: NextUpPlace?
        if let before { place = .before(try context.store.resolve(before).id) }
        if let after { place = .after(try context.store.resolve(after).id) }
        let result = try context.store.edit(task.id, set: fields, nextUp: next, place: place, thisOnly: thisOnly)
        let title = Sanitizer.visible(result.task.title)
        if result.isChange {
            context.didChangeTasks()
            let names = result.changes.filter { $0.field.seriesOf == nil }.map { change in
                if let tag = change.field.tagName { return (change.value == .bool(true) ? "+" : "-") + Sanitizer.visible(tag) }
                guard change.field == .nextUp else { return change.field.rawValue }
                if place != nil { return "moved in Next Up" }
                return result.task.isNextUp ? "moved to Next Up" : "moved to Backlog"
            }
            let scope = !result.task.isRecurring || !result.changes.contains(where: { $0.field.canBeThisOnly }) ? "" : thisOnly ? " (this one only)" : " (the series)"
            print("changed \(result.task.id.short) \(title): \(names.joined(separator: ", "))\(scope)")
        } else {
            let already = fields.isEmpty && place != nil ? "already stands there in Next Up" : "already has those values"
            print("no change: \(result.task.id.short) \(title) \(already)")
        }
    }
}
