import ArgumentParser
import Foundation
import NextUpConfig
import NextUpCore
import NextUpStore
import NextUpSync

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Write every task (done and deleted too) as a JSON array.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to write, or - for standard output (the default).") var file: String?
    @Option(help: ArgumentHelp("Write another tool's format instead: taskwarrior (what `task import` reads).", valueName: "format"))
    var to: InterchangeFormat?
    @OptionGroup var taskwarrior: TaskwarriorOptions

    func run() throws {
        let context = try CommandContext.open(global)
        if to == .taskwarrior {
            let all = try context.store.allTasks()
            let mapping = taskwarrior.options(context.config.taskwarrior)
            let objects = TaskwarriorMapping.objects(all, mapping)
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
            try write(CollectionOfOne(Array(data + Data("\n".utf8))), count: all.count)
        } else {
            let (all, versions) = try context.store.allTasksWithStoredVersions()
            try write(JSONOutput.pieces(all, order: TaskOrdering.exportOrder(all), versions: versions), count: all.count)
        }
    }

    /// Writes `pieces` to the file (standard output by default).
    private func write(_ pieces: some Sequence<[UInt8]>, count: Int) throws {
        guard let file, file != "-" else { return try Terminal.write(pieces: pieces) }
        try PrivateFile.write(pieces: pieces, to: file, command: "export")
        Terminal.printError("exported \(count) tasks\(to == .taskwarrior ? " for Taskwarrior" : "") to \(file)")
    }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a JSON array of tasks (as `export` writes); idempotent.",
        discussion: """
            Tasks are matched by id and merged like a sync: a field takes the file's value only when the file's \
            is newer than the store's (the per-field versions `export` writes, else the record's `modified`), \
            so importing an older backup never reverts newer edits. --overwrite rolls the store back to the \
            file and lists every newer value it replaced. One bad item rejects the whole file.
            """
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The file to read, or - for standard input.") var file: String
    @Flag(help: "Take the file's values even where the store's are newer (listing each one replaced).") var overwrite = false
    @Option(help: ArgumentHelp("Read another tool's format: taskwarrior (what `task export` writes, 2.6 or 3.x).", valueName: "format"))
    var from: InterchangeFormat?
    @OptionGroup var taskwarrior: TaskwarriorOptions
    @OptionGroup var taskwarriorImport: TaskwarriorImportOptions

    func validate() throws {
        if taskwarriorImport.skipInvalid && from != .taskwarrior { throw ValidationError("--skip-invalid goes with --from taskwarrior") }
    }

    /// The file is read and checked whole before the store is opened, so a
    /// rejected file never creates a store.
    func run() throws {
        let (read, templates, series, skipped) = try readRecords()
        let count = read.count
        // Handed over whole: the records are freed once planned, before the write.
        var records: [TaskJSON]? = consume read
        var imported: TaskStore.ImportSummary?
        let context = try CommandContext.open(global, creating: true) { location in
            let opened = try TaskStore.openImporting(location, records.take()!, overwrite: overwrite)
            imported = opened.summary
            return opened.store
        }
        let summary = imported!
        if summary.created + summary.updated > 0 { context.didChangeTasks() }
        for (task, field, was) in summary.overwritten {
            print("overwrote \(task.short) \(field.rawValue): was '\(Sanitizer.visible(TerminalWidth.truncate(was.description, to: 60)))'")
        }
        print("imported \(count) tasks: \(summary.created) added, \(summary.updated) updated, "
              + "\(summary.kept) kept (newer here), \(summary.unchanged) unchanged")
        if let ahead = summary.aheadMillis {
            Terminal.printError("warning: \(file) holds changes \(SyncReport.duration(ahead)) ahead of this machine's clock (imported anyway); "
                                + "check the clocks — `nextup doctor` names the machine whose clock runs ahead")
        }
        if series > 0 {
            print("imported \(series) recurring series from Taskwarrior (one live occurrence each, the done ones in the history)")
        }
        if templates > 0 {
            print("kept \(templates) recurring template\(templates == 1 ? "" : "s") hidden for the way back (their tasks imported as plain tasks)")
        }
        for line in skipped { print("skipped \(Sanitizer.visible(line))") }
    }
}

extension ImportCommand {
    /// The bytes of `file` (`-`: standard input).
    static func contents(of file: String) throws -> Data {
        if file == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDir), !isDir.boolValue,
              let data = FileManager.default.contents(atPath: file) else {
            throw CLIError("import: cannot read \(file)")
        }
        return data
    }

    /// Whether `data` reads as Taskwarrior's export: an array whose first
    /// item has Taskwarrior's `uuid` and `description` and no nextup `title`.
    static func looksLikeTaskwarrior(_ data: Data) -> Bool {
        guard let items = try? JSONSerialization.jsonObject(with: data) as? [Any],
              let first = items.first as? [String: Any] else { return false }
        return first["uuid"] != nil && first["description"] != nil && first["title"] == nil
    }

    /// The file's records (how many recurring templates they hold hidden, how
    /// many series they make, and the items skipped).
    func readRecords() throws -> (records: [TaskJSON], templates: Int, series: Int, skipped: [String]) {
        guard from == .taskwarrior else {
            let data = try Self.contents(of: file)
            do { return (try JSONOutput.decodeTasks(data), 0, 0, []) } catch {
                guard Self.looksLikeTaskwarrior(data) else { throw error }
                throw CLIError("import: this looks like a Taskwarrior export; use --from taskwarrior (nextup import --from taskwarrior \(file))")
            }
        }
        let read = try TaskwarriorImport(Self.contents(of: file), taskwarrior.options(try CommandContext.loadConfig().taskwarrior))
        try taskwarriorImport.check(read)
        return (read.records, read.templates, read.series, read.bad)
    }
}

/// Another tool's file format, for `import --from` and `export --to`.
enum InterchangeFormat: String, ExpressibleByArgument, CaseIterable {
    case taskwarrior
}

/// The choices of the Taskwarrior mapping (README, "Coming from Taskwarrior").
struct TaskwarriorOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A tag or UDA that marks a Taskwarrior task urgent.", valueName: "tag-or-uda"))
    var urgencyFrom: String?
    @Option(help: ArgumentHelp("A UDA holding a duration (minutes, or ISO 8601 like PT1H30M).", valueName: "uda"))
    var durationFrom: String?
    @Flag(help: "Category from the project's first segment (Home.Garden → Home) instead of the whole project.")
    var categoryFromTopProject = false
    @Flag(help: ArgumentHelp("Category from the whole project (the default, unless the config file's [taskwarrior] says category = \"top-project\").", visibility: .default))
    var categoryFromProject = false

    func validate() throws {
        if categoryFromTopProject && categoryFromProject {
            throw ValidationError("choose one of --category-from-top-project and --category-from-project")
        }
    }

    /// The mapping's choices: these options, else the config file's
    /// `[taskwarrior]` table, else the defaults.
    func options(_ config: NextUpConfig.Taskwarrior) -> TaskwarriorMapping.Options {
        let top = categoryFromTopProject ? true : categoryFromProject ? false : (config.categoryFromTopProject ?? false)
        return TaskwarriorMapping.Options(categoryFromFirstSegment: top, urgencyFrom: urgencyFrom ?? config.urgencyFrom,
                                          durationFrom: durationFrom ?? config.durationFrom)
    }
}
