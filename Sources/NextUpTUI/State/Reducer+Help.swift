import NextUpCore

extension Reducer {
    /// A key while the help is open. When the help is taller than the
    /// screen, j k and the arrows move it a line, space PgDn b PgUp a page,
    /// g G Home End to either end; any other key closes it (every key, when
    /// it fits).
    static func helpKey(_ key: Key, _ state: inout AppState) {
        let (page, lastTop) = HelpView.scrolling(state)
        let top = state.helpTop
        let next: Int? = switch key {
        case .down, .char("j"): top + 1
        case .up, .char("k"): top - 1
        case .pageDown, .char(" "): top + page
        case .pageUp, .char("b"): top - page
        case .home, .char("g"): 0
        case .end, .char("G"): lastTop
        default: nil
        }
        guard lastTop > 0, let next else {
            state.showHelp = false
            state.helpTop = 0
            return
        }
        state.helpTop = min(max(0, next), lastTop)
    }
}
