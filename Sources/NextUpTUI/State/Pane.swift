/// The two lists on screen.
public enum Pane: String, CaseIterable, Sendable {
    case nextUp
    case backlog

    public var other: Pane { self == .nextUp ? .backlog : .nextUp }
    public var title: String { self == .nextUp ? "Next Up" : "Backlog" }
}
