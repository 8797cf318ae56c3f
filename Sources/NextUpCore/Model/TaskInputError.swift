/// A value a person typed (or a file held) that a task cannot take.
/// Its description is one line, fit to print after `error: `.
public struct TaskInputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
