import NextUpCore

/// "While you were away": what other machines and the phone changed since
/// this machine last looked (``TaskStore/arrivals(since:)``, the summary
/// `nextup changes` prints), in words, for the overlay the TUI shows over
/// the lists at start until a key is pressed.
public struct AwaySummary: Equatable, Sendable {
    /// One change: which machine, on which task, what it did.
    public struct Line: Equatable, Sendable {
        public var machine: String
        public var title: String
        /// `title: “a” → “b”`, `done`, `tag work added` (``TaskHistory/words(_:old:new:)``).
        public var change: String

        public init(machine: String, title: String, change: String) {
            self.machine = machine
            self.title = title
            self.change = change
        }
    }

    /// Since when (ms, this machine's clock; 0: since ever).
    public var since: Int64
    /// Every change, task by task, newest first within a task.
    public var lines: [Line]
    /// How many tasks they touch.
    public var tasks: Int
    /// Whether more arrived than ``lines`` holds (the read was limited).
    public var cut: Bool

    public init(since: Int64, lines: [Line], tasks: Int, cut: Bool = false) {
        self.since = since
        self.lines = lines
        self.tasks = tasks
        self.cut = cut
    }

    /// The most changes the TUI reads for it.
    public static let readLimit = 100
}
