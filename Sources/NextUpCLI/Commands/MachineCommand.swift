import ArgumentParser
import NextUpCore
import NextUpStore

/// `nextup machine [NAME]`: this machine's name as the history and other
/// machines show it (the host name until one is set).
struct MachineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "machine",
        abstract: "Show or set this machine's name, as other machines' history shows it.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The new name (1 to 40 characters).") var name: String?
    @Flag(help: "Go back to the host name.") var reset = false

    func run() throws {
        // Naming a machine is setting it up: it may make the store.
        let context = try CommandContext.open(global, creating: name != nil)
        if reset && name != nil { throw CLIError("give a name or --reset, not both") }
        if reset || name != nil {
            do { try context.store.setMachineName(reset ? nil : name) } catch let error as TaskInputError { throw CLIError(error.description) }
        }
        print(try context.store.machineName())
    }
}
