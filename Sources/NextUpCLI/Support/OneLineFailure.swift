import ArgumentParser
import NextUpCore
import NextUpStore

/// A failure the command line reports as one line on standard error
/// (`nextup: <line>`) with its exit code: 1 for a refused request, 64 for a
/// command line typed wrong.
protocol OneLineFailure: Error {
    var line: String { get }
    var exitCode: Int32 { get }
}

extension OneLineFailure {
    var exitCode: Int32 { 1 }
}

extension TaskInputError: OneLineFailure { var line: String { message } }
extension StoreError: OneLineFailure { var line: String { description } }
extension StaleWrite: OneLineFailure { var line: String { description } }
extension CLIError: OneLineFailure { var line: String { message } }
extension DashedWord: OneLineFailure {
    var line: String { message }
    var exitCode: Int32 { ExitCode.validationFailure.rawValue }
}
extension TaskwarriorSpelling: OneLineFailure {
    var line: String { message }
    var exitCode: Int32 { ExitCode.validationFailure.rawValue }
}
