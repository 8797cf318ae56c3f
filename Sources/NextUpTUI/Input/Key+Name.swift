/// Key names as written in the config file and shown in the help overlay:
/// a single character (`j`, `J`, `?`, `/`), or one of `space`, `tab`,
/// `backtab`, `enter`, `esc`, `backspace`, `delete`, `up`, `down`, `left`,
/// `right`, `home`, `end`, `pageup`, `pagedown`, `f1`…`f12`, `ctrl-X`.
extension Key {
    /// Parses a key name; nil when it names no key.
    public init?(name: String) {
        let lower = name.lowercased()
        switch lower {
        case "space": self = .char(" ")
        case "tab": self = .tab
        case "backtab", "shift-tab", "s-tab": self = .backTab
        case "enter", "return": self = .enter
        case "esc", "escape": self = .escape
        case "backspace", "bs": self = .backspace
        case "delete", "del": self = .delete
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "home": self = .home
        case "end": self = .end
        case "pageup", "pgup": self = .pageUp
        case "pagedown", "pgdn", "pgdown": self = .pageDown
        default:
            if name.count == 1, let c = name.first, !c.isWhitespace, c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) {
                self = .char(c)
            } else if lower.hasPrefix("ctrl-") || lower.hasPrefix("c-"), let c = lower.split(separator: "-", maxSplits: 1).last?.first,
                      lower.split(separator: "-", maxSplits: 1).last?.count == 1, c.isASCII, c.isLetter {
                self = .ctrl(c)
            } else if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) {
                self = .function(n)
            } else {
                return nil
            }
        }
    }

    /// The name the help overlay shows; parses back with ``init(name:)``.
    public var name: String {
        switch self {
        case .char(" "): return "space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "ctrl-\(c)"
        case .up: return "up"
        case .down: return "down"
        case .left: return "left"
        case .right: return "right"
        case .home: return "home"
        case .end: return "end"
        case .pageUp: return "pageup"
        case .pageDown: return "pagedown"
        case .backspace: return "backspace"
        case .delete: return "delete"
        case .enter: return "enter"
        case .escape: return "esc"
        case .tab: return "tab"
        case .backTab: return "backtab"
        case .function(let n): return "f\(n)"
        case .resize: return "resize"
        case .paste: return "a paste"
        }
    }
}
