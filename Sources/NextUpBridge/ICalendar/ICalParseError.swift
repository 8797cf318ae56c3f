/// Why bytes are not an iCalendar object; ``message`` is one line for people.
public struct ICalParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
