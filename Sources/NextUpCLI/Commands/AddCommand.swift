import ArgumentParser
import NextUpCore
import NextUpStore

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a task; prints its id.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The title (words are joined with spaces).") var title: [String]
    @Option(help: "urgent or not-urgent.") var urgency: String?
    @Option(help: "1 (low), 2 (medium) or 3 (high).") var importance: String?
    @Option(help: "30m, 1h, 1h30m, 90 (minutes).") var duration: String?
    @Option(help: "A category name.") var category: String?
    @Option(help: "YYYY-MM-DD, today, tomorrow, monday, eow, eom, +3d, 2w …") var due: String?
    @Option(help: ArgumentHelp("Recur: every monday, every 2 weeks, monthly on the 31st, 3 days after done, FREQ=WEEKLY;BYDAY=MO ….", valueName: "rule"))
    var recur: String?
    @Option(name: .customLong("defer"), help: ArgumentHelp("Hide the task from both lists until this date (the same words as --due).", valueName: "date"))
    var deferDate: String?
    @Option(help: "Free text.") var notes: String?
    @Option(help: ArgumentHelp("Read the notes from a file, or - for standard input.", valueName: "file")) var notesFile: String?
    @Option(name: .customLong("tag"), help: ArgumentHelp("A tag (repeatable).", valueName: "name")) var tags: [String] = []
    @Flag(help: "Put the task at the bottom of Next Up.") var next = false
    @Flag(help: "Print the new task as JSON.") var json = false

    /// The field options by their field-table names.
    var given: [String: String] {
        ["urgency": urgency, "importance": importance, "duration": duration, "category": category,
         "due": due, "notes": notes, "recur": recur, "defer": deferDate].compactMapValues { $0 }
    }

    func validate() throws {
        if notes != nil && notesFile != nil { throw ValidationError("choose one of --notes and --notes-file") }
    }

    func run() throws {
        var draft = try TaskDraft(title: title.joined(separator: " "))
        let literal = try notesFile.map { ["notes": try FieldOptions.notesFile($0)] } ?? [:]
        for (field, value) in try FieldOptions.values(given, literal: literal) where value != .null { draft.values[field] = value }
        draft.tags = try FieldOptions.tags(tags)
        draft.nextUp = next
        let context = try CommandContext.open(global, creating: true)
        let task = try context.store.add(draft)
        context.didChangeTasks()
        print(json ? JSONOutput.string(task) : task.id.rawValue)
    }
}
