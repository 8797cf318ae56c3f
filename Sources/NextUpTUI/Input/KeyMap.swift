/// Which key does what: data, not code, so the config file can remap it.
///
/// Contract: a key maps to at most one action; an action may have several
/// keys. Rebinding an action replaces all of its default keys, and takes the
/// new keys away from whichever action had them.
public struct KeyMap: Equatable, Sendable {
    public private(set) var actions: [Key: Action]

    public init(actions: [Key: Action]) { self.actions = actions }

    /// The default keys of DESIGN.md §7.
    public static let defaults = KeyMap(actions: [
        .char("j"): .moveDown, .down: .moveDown,
        .char("k"): .moveUp, .up: .moveUp,
        .char("g"): .top, .home: .top,
        .char("G"): .bottom, .end: .bottom,
        .pageDown: .pageDown, .ctrl("d"): .pageDown,
        .pageUp: .pageUp, .ctrl("b"): .pageUp,
        .tab: .switchPane, .backTab: .switchPane,
        .char("a"): .add,
        .char("e"): .editTitle,
        .char("u"): .cycleUrgency,
        .char("i"): .cycleImportance,
        .char("d"): .setDuration,
        .char("c"): .cycleCategory,
        .char("C"): .typeCategory,
        .char("t"): .setDue,
        .char("+"): .editTags,
        .char("N"): .editNotes,
        .enter: .details,
        .char("H"): .history,
        .char("n"): .toggleNextUp,
        .char("J"): .reorderDown,
        .char("K"): .reorderUp,
        .char("x"): .toggleDone, .char(" "): .toggleDone,
        .char("D"): .delete,
        .char("z"): .undo,
        .char("Z"): .redo,
        .char("/"): .filter,
        .char("s"): .sort,
        .char("r"): .sync,
        .char("?"): .help,
        .char("q"): .quit,
        .ctrl("l"): .redraw,
        .char("O"): .setRecurrence,
        .char("w"): .setDefer,
        .char("S"): .skipOccurrence,
        .char("X"): .stopSeries,
        .char("L"): .later,
        .char("]"): .olderChange,
        .char("["): .newerChange,
        .char("R"): .restoreChange,
    ])

    public func action(for key: Key) -> Action? { actions[key] }

    /// The keys bound to `action`, in a stable order for display: single
    /// characters first.
    public func keys(for action: Action) -> [Key] {
        actions.filter { $0.value == action }.map(\.key).sorted {
            ($0.name.count, $0.name) < ($1.name.count, $1.name)
        }
    }

    /// Applies the config file's bindings (action name → key names, several
    /// separated by commas or spaces). Returns the map and one plain-words
    /// problem per binding that could not be used (those are skipped), per
    /// key that two bindings give to two actions (the later name, in
    /// alphabetical order, keeps it), and per action left with no key.
    public func applying(_ bindings: [String: String]) -> (map: KeyMap, problems: [String]) {
        var map = self
        var problems: [String] = []
        var givenBy: [Key: Action] = [:]
        for (name, keyList) in bindings.sorted(by: { $0.key < $1.key }) {
            guard let action = Action(rawValue: name) else {
                problems.append("unknown action '\(name)' in key bindings")
                continue
            }
            let names = keyList.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            let keys = names.compactMap { Key(name: $0) }
            guard !names.isEmpty, keys.count == names.count else {
                problems.append("'\(keyList)' is not a key name (binding for \(name))")
                continue
            }
            for (k, a) in map.actions where a == action { map.actions[k] = nil }
            for k in keys {
                if let other = givenBy[k], other != action {
                    problems.append("key '\(k.name)' is bound to both \(other.rawValue) and \(action.rawValue) in [keys]; \(action.rawValue) keeps it")
                }
                givenBy[k] = action
                map.actions[k] = action
            }
        }
        for action in Action.allCases where map.keys(for: action).isEmpty {
            problems.append("\(action.rawValue) has no key left: [keys] gave its keys to other actions")
        }
        return (map, problems)
    }
}
