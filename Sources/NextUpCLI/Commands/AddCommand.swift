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
    @Option(help: "YYYY-MM-DD.") var due: String?
    @Option(help: "Free text.") var notes: String?
    @Flag(help: "Put the task at the bottom of Next Up.") var next = false
    @Flag(help: "Print the new task as JSON.") var json = false

    func run() throws {
        var draft = try TaskDraft(title: title.joined(separator: " "))
        draft.urgency = try urgency.map(Urgency.parse)
        draft.importance = try importance.map(Importance.parse)
        draft.duration = try duration.map(TaskDuration.parse)
        draft.category = try category.map(TaskText.category)
        draft.due = try due.map(DueDate.parse)
        draft.notes = try notes.map(TaskText.notes) ?? ""
        draft.nextUp = next
        let context = try CommandContext.open(global)
        let task = try context.store.add(draft)
        context.didChangeTasks()
        print(json ? try JSONOutput.string(task) : task.id.rawValue)
    }
}
