extension TaskField {
    /// A value of this field in plain words, for messages: “Buy milk”, 1h30m,
    /// unset, done, in Next Up… Text is made visible (no control characters)
    /// and cut to `limit` cells.
    public func words(for value: FieldValue, limit: Int = 40) -> String {
        switch (self, value) {
        case (.deleted, .bool(let deleted)): return deleted ? "deleted" : "not deleted"
        case (.done, .null): return "open"
        case (.done, _): return "done"
        case (.nextUp, .null): return "in the Backlog"
        case (.nextUp, _): return "in Next Up"
        case (_, .null): return "unset"
        case (.duration, .int(let minutes)):
            return (try? TaskDuration(minutes: Int(minutes)))?.description ?? "\(minutes)m"
        case (_, .string(let text)): return "“\(TerminalWidth.truncate(Sanitizer.visible(text), to: limit))”"
        default: return Sanitizer.visible(value.description)
        }
    }

    /// The field's name in plain words: "next up", "external id".
    public var spokenName: String { rawValue.replacingOccurrences(of: "_", with: " ") }
}
