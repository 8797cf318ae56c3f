import CNcursesw
import Glibc
import NextUpCore

/// The key codes ncurses reports for the bracketed-paste markers.
private let pasteStartCode = KEY_MAX + 1
private let pasteEndCode = KEY_MAX + 2

/// The real terminal, through ncursesw. Only the event loop's thread calls it.
///
/// Contract: ``start(color:)`` puts the terminal in cbreak/noecho/keypad mode
/// on the alternate screen; ``stop()`` (idempotent) gives it back exactly as
/// it was. Text reaches the terminal only through `waddnstr`, after the views
/// have replaced every control character with a placeholder.
public final class NcursesScreen: Screen {
    private var stopped = false
    private var lastFrame: Frame?
    private var forceFull = false
    private var attributes: [Style: Int32] = [:]
    private var cursorVisible: Int32 = -1
    /// The text of a paste still arriving (between the two markers).
    private var pasting: String?
    /// The locale is not UTF-8 (`LANG=C`): text is drawn in ASCII.
    private var ascii = false

    private init() {}

    /// Takes over the terminal. `color` false honours `NO_COLOR`: styles then
    /// use bold, reverse, underline and dim only.
    public static func start(color: Bool) throws -> NcursesScreen {
        _ = nu_setlocale_all()
        guard let output = fdopen(dup(1), "w"), let input = fdopen(dup(0), "r") else {
            throw TerminalAppError("cannot open the terminal")
        }
        guard let screen = newterm(nil, output, input) else {
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw TerminalAppError("cannot start the screen: the terminal type '\(Sanitizer.visible(term))' is unknown (check TERM)")
        }
        set_term(screen)
        guard nu_has_cursor_addressing() != 0 else {
            endwin()
            delscreen(screen)
            let term = getenv("TERM").map { String(cString: $0) } ?? "(unset)"
            throw TerminalAppError("TERM=\(Sanitizer.visible(term)) cannot show the task screen (it cannot move the cursor); nextup list and the other commands work")
        }
        cbreak()
        noecho()
        nonl()
        _ = nu_keypad(true)
        intrflush(nu_stdscr(), false)
        set_escdelay(25)
        nu_timeout(0)
        // Bracketed paste: the terminal wraps a paste in ESC[200~ … ESC[201~,
        // which ncurses reports as two key codes of our own.
        _ = define_key("\u{1b}[200~", pasteStartCode)
        _ = define_key("\u{1b}[201~", pasteEndCode)
        Self.writeToTerminal("\u{1b}[?2004h")
        let s = NcursesScreen()
        s.ascii = nu_locale_is_utf8() == 0
        s.setUpStyles(color: color && has_colors())
        return s
    }

    /// Gives the terminal back. Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        curs_set(1)
        endwin()
        Self.writeToTerminal("\u{1b}[?2004l")
    }

    /// Hands the terminal to another program (the notes editor) for a while,
    /// the way ncurses documents shelling out: the program's modes saved
    /// (`def_prog_mode`), then `endwin` — the normal screen and the modes the
    /// shell had (cooked, echo), no bracketed paste.
    public func suspend() {
        guard !stopped else { return }
        Self.writeToTerminal("\u{1b}[?2004l")
        _ = def_prog_mode()
        _ = endwin()
    }

    /// Takes the terminal back after ``suspend()`` (the program's modes again,
    /// its size as it is now) and repaints everything.
    public func resume() {
        guard !stopped else { return }
        _ = reset_prog_mode()
        nu_take_terminal_size()
        Self.writeToTerminal("\u{1b}[?2004h")
        forceFull = true
        lastFrame = nil
        _ = nu_refresh()
    }

    private static func writeToTerminal(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(1, &bytes, bytes.count)
    }

    public func size() -> (width: Int, height: Int) { (Int(nu_cols()), Int(nu_lines())) }

    public func redrawAll() { forceFull = true }

    public func draw(_ frame: Frame) {
        guard !stopped else { return }
        if !forceFull, frame == lastFrame { return }
        let full = forceFull || lastFrame == nil || lastFrame!.lines.count != frame.lines.count
        if forceFull {
            _ = nu_clearok(true)
        }
        if full { _ = nu_erase() }
        forceFull = false
        let height = Int(nu_lines())
        for (y, line) in frame.lines.enumerated() where y < height {
            if !full, let last = lastFrame, last.lines[y] == line { continue }
            for write in Self.writePlan(line) {
                _ = nu_move(Int32(y), Int32(write.x))
                _ = nu_attrset(attributes[write.style] ?? 0)
                _ = nu_addnstr(ascii ? Self.asciiText(write.text) : write.text, -1)
            }
        }
        _ = nu_attrset(0)
        if let cursor = frame.cursor {
            setCursor(1)
            _ = nu_move(Int32(cursor.row), Int32(cursor.col))
        } else {
            setCursor(0)
        }
        _ = nu_refresh()
        lastFrame = frame
    }

    /// One write to the screen: text in one style from column `x`.
    struct Write: Equatable {
        var x: Int
        var text: String
        var style: Style
    }

    /// How a line is written: each span from the column its cells start at
    /// (``TerminalWidth``), cut after any character curses moves on by fewer
    /// cells than it takes (``TerminalWidth/cursesWidth(of:)``: `✈️`), so
    /// that what follows starts at its own column, not where curses thinks.
    /// A cluster curses counts wider (a ZWJ family) is not cut: moving back
    /// would write over it on a terminal that draws each of its emoji.
    static func writePlan(_ line: ScreenLine) -> [Write] {
        var plan: [Write] = []
        var x = 0
        for span in line.spans {
            if span.text.utf8.allSatisfy({ $0 < 0x80 }) {
                plan.append(Write(x: x, text: span.text, style: span.style))
                x += span.text.utf8.count
                continue
            }
            var piece = Write(x: x, text: "", style: span.style)
            for c in span.text {
                let cells = TerminalWidth.width(of: c)
                piece.text.append(c)
                x += cells
                if cells > TerminalWidth.cursesWidth(of: c) {
                    plan.append(piece)
                    piece = Write(x: x, text: "", style: span.style)
                }
            }
            if !piece.text.isEmpty { plan.append(piece) }
        }
        return plan
    }

    /// The text in ASCII for a terminal whose locale is not UTF-8, cell for
    /// cell: the screen's own marks get ASCII look-alikes (`▸` `>`, `✓` `x`,
    /// `·` `|`, `…` `~`), any other character a `?` per cell it takes.
    static func asciiText(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for c in text {
            if c.isASCII { out.append(c); continue }
            switch c {
            case "▸", "→": out.append(">")
            case "✓": out.append("x")
            case "·": out.append("|")
            case "…": out.append("~")
            case "—", "–", "─": out.append("-")
            case "“", "”": out.append("\"")
            case "×": out.append("x")
            default: out += String(repeating: "?", count: max(1, TerminalWidth.width(of: String(c))))
            }
        }
        return out
    }

    /// Keys typed since the last call. A paste comes as one ``Key/paste(_:)``
    /// once its end marker arrived (a long one may span several calls).
    public func readKeys() -> [Key] {
        var keys: [Key] = []
        var ch: wint_t = 0
        while true {
            let r = nu_get_wch(&ch)
            if r == ERR { break }
            if r == nu_key_code_yes() {
                let code = Int32(ch)
                if code == pasteStartCode {
                    pasting = pasting ?? ""
                } else if code == pasteEndCode {
                    if let text = pasting { keys.append(.paste(text)) }
                    pasting = nil
                } else if pasting == nil, let k = Self.functionKey(code) {
                    keys.append(k)
                }
            } else if pasting != nil {
                if let scalar = Unicode.Scalar(UInt32(ch)), (pasting?.unicodeScalars.count ?? 0) < Self.pasteLimit {
                    pasting?.unicodeScalars.append(scalar)
                }
            } else if let k = Self.characterKey(UInt32(ch)) {
                keys.append(k)
            }
            if keys.count > 512 { break }
        }
        return keys
    }

    /// The most of one paste kept (characters beyond are dropped): more than
    /// any field takes.
    static let pasteLimit = 1 << 20

    private func setCursor(_ visibility: Int32) {
        if cursorVisible != visibility {
            curs_set(visibility)
            cursorVisible = visibility
        }
    }

    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        case KEY_RESIZE: return .resize
        default:
            for n in 1...12 where code == nu_key_f(Int32(n)) { return .function(n) }
            return nil
        }
    }

    static func characterKey(_ c: UInt32) -> Key? {
        switch c {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .ctrl(Character(Unicode.Scalar(c + 96)!))
        case 0, 28...31: return nil
        default:
            guard let scalar = Unicode.Scalar(c) else { return nil }
            return .char(Character(scalar))
        }
    }

    private func setUpStyles(color: Bool) {
        let bold = Int32(nu_a_bold()), reverse = Int32(nu_a_reverse()), dim = Int32(nu_a_dim()), under = Int32(nu_a_underline())
        var a: [Style: Int32] = [
            .normal: 0, .title: reverse | bold, .header: bold, .headerFocused: bold | under,
            .selected: reverse | bold, .selectedInactive: bold, .done: dim, .changed: under,
            .unset: dim, .status: reverse, .statusProblem: reverse | bold, .message: 0, .error: bold, .help: bold,
            .overdue: bold | under, .dueToday: bold,
        ]
        if color {
            start_color()
            use_default_colors()
            let pairs: [(Style, Int16, Int16, Int32)] = [
                (.title, Int16(COLOR_BLACK), Int16(COLOR_CYAN), bold),
                (.headerFocused, Int16(COLOR_YELLOW), -1, bold),
                (.changed, Int16(COLOR_BLACK), Int16(COLOR_YELLOW), 0),
                (.status, Int16(COLOR_BLACK), Int16(COLOR_WHITE), 0),
                (.statusProblem, Int16(COLOR_WHITE), Int16(COLOR_RED), bold),
                (.message, Int16(COLOR_GREEN), -1, 0),
                (.error, Int16(COLOR_RED), -1, bold),
                (.help, Int16(COLOR_CYAN), -1, bold),
                (.unset, Int16(COLOR_YELLOW), -1, dim),
                (.overdue, Int16(COLOR_RED), -1, bold),
                (.dueToday, Int16(COLOR_YELLOW), -1, bold),
            ]
            for (i, p) in pairs.enumerated() {
                init_pair(Int16(i + 1), p.1, p.2)
                a[p.0] = Int32(nu_color_pair(Int32(i + 1))) | p.3
            }
        }
        attributes = a
    }
}
