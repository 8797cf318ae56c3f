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
    @Option(help: "YYYY-MM-DD or none.") var due: String?
    @Option(help: "Free text or none.") var notes: String?
    @Flag(inversion: .prefixedNo, help: "Move into (--next) or out of (--no-next) Next Up.") var next: Bool?
    @Option(help: ArgumentHelp("Move the task, in Next Up, to just before this one (an id or a unique prefix).", valueName: "id"))
    var before: String?
    @Option(help: ArgumentHelp("Move the task, in Next Up, to just after this one (an id or a unique prefix).", valueName: "id"))
    var after: String?

    func validate() throws {
        if before != nil && after != nil {
            throw ValidationError("choose one of --before and --after")
        }
        if (before != nil || after != nil) && next != nil {
            throw ValidationError("--before/--after reorder a task already in Next Up; use them without --next/--no-next")
        }
    }

    /// `none` (any case) means unset.
    static func clearing(_ text: String, _ parse: (String) throws -> FieldValue) rethrows -> FieldValue {
        text.trimmingCharacters(in: .whitespaces).lowercased() == "none" ? .null : try parse(text)
    }

    /// The field values asked for, validated, in a fixed order.
    func requestedFields() throws -> [(TaskField, FieldValue)] {
        var f: [(TaskField, FieldValue)] = []
        if let title { f.append((.title, .string(try TaskText.title(title)))) }
        if let urgency { f.append((.urgency, try Self.clearing(urgency) { .string(try Urgency.parse($0).rawValue) })) }
        if let importance { f.append((.importance, try Self.clearing(importance) { .int(Int64(try Importance.parse($0).rawValue)) })) }
        if let duration { f.append((.duration, try Self.clearing(duration) { .int(Int64(try TaskDuration.parse($0).minutes)) })) }
        if let category { f.append((.category, try Self.clearing(category) { .string(try TaskText.category($0)) })) }
        if let due { f.append((.due, try Self.clearing(due) { .string(try DueDate.parse($0).description) })) }
        if let notes {
            let cleared = notes.trimmingCharacters(in: .whitespaces).lowercased() == "none"
            f.append((.notes, .string(cleared ? "" : try TaskText.notes(notes))))
        }
        return f
    }

    func run() throws {
        let fields = try requestedFields()
        guard !fields.isEmpty || next != nil || before != nil || after != nil else {
            throw CLIError("edit: say what to change (--title, --urgency, --importance, --duration, --category, --due, --notes, --next/--no-next, --before/--after)")
        }
        let context = try CommandContext.open(global)
        let task = try context.store.resolve(id)
        var place: NextUpPlace?
        if let before { place = .before(try context.store.resolve(before).id) }
        if let after { place = .after(try context.store.resolve(after).id) }
        let result = try context.store.edit(task.id, set: fields, nextUp: next, place: place)
        let title = Sanitizer.visible(result.task.title)
        if result.isChange {
            context.didChangeTasks()
            let names = result.changes.map { change in
                guard change.field == .nextUp else { return change.field.rawValue }
                if place != nil { return "moved in Next Up" }
                return result.task.isNextUp ? "moved to Next Up" : "moved to Backlog"
            }
            print("changed \(result.task.id.short) \(title): \(names.joined(separator: ", "))")
        } else {
            let already = fields.isEmpty && place != nil ? "already stands there in Next Up" : "already has those values"
            print("no change: \(result.task.id.short) \(title) \(already)")
        }
    }
}
