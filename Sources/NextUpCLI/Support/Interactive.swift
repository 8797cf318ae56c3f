import NextUpStore

/// What `nextup` with no subcommand opens.
enum Interactive {
    static func open(_ context: CommandContext) throws {
        let tasks = try context.store.nextUp()
        print("Next Up (\(tasks.count))")
        TaskTable.render(tasks, width: Terminal.width()).forEach { print($0) }
    }
}
