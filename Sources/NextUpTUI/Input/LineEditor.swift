/// A one-line text editor: the text being typed in a prompt and the cursor.
///
/// Keys: printable characters insert, left/right/home/end (and Ctrl-A/E/B/F)
/// move, backspace/delete (Ctrl-H/D) erase, Ctrl-U erases to the start,
/// Ctrl-K to the end, Ctrl-W the word before the cursor. Enter and Esc are the
/// prompt's business, not the editor's.
public struct LineEditor: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// Insertion point, 0…characters.count.
    public private(set) var cursor: Int

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// Applies an editing key. Returns false when the key is not an editing
    /// key (the caller decides what it means).
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .char(let c):
            guard Self.isPrintable(c) else { return true }
            // A combining mark typed after a letter joins it: the editor's
            // characters are graphemes, so backspace removes e + ◌́ at once.
            if cursor > 0 {
                let joined = Array(String(characters[cursor - 1]) + String(c))
                if joined.count == 1 {
                    characters[cursor - 1] = joined[0]
                    return true
                }
            }
            characters.insert(c, at: cursor)
            cursor += 1
        case .paste(let text):
            // One line: line breaks and tabs become spaces, other control
            // characters are dropped.
            let line = text.replacingOccurrences(of: "\r\n", with: " ").map { c -> Character in
                c == "\n" || c == "\r" || c == "\t" ? " " : c
            }.filter(Self.isPrintable)
            characters.insert(contentsOf: line, at: cursor)
            cursor += line.count
        case .left, .ctrl("b"): cursor = max(0, cursor - 1)
        case .right, .ctrl("f"): cursor = min(characters.count, cursor + 1)
        case .home, .ctrl("a"): cursor = 0
        case .end, .ctrl("e"): cursor = characters.count
        case .backspace, .ctrl("h"):
            if cursor > 0 { characters.remove(at: cursor - 1); cursor -= 1 }
        case .delete, .ctrl("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .ctrl("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .ctrl("k"):
            characters.removeSubrange(cursor...)
        case .ctrl("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    static func isPrintable(_ c: Character) -> Bool {
        c.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
    }
}
