/// A strict check of the small part of TOML a nextup config file uses, made
/// before the TOML library sees the text.
///
/// Why: the library's C++ parser (toml++) stops the whole process on an
/// internal assertion for some damaged files (found by fuzzing, issue 15) —
/// a config file with a stray byte must be one clear line, never a crash.
/// What passes here is plain TOML the library reads without trouble: comments,
/// `[table]` headers, `key = value` with bare or quoted keys, and values that
/// are strings (`"…"` with TOML's escapes, or `'…'`), `true`/`false`, whole
/// numbers, and lists of those (over several lines if need be).
enum ConfigSyntax {
    struct Problem: Error, Equatable {
        let line: Int
        let message: String
    }

    /// The kind of a value, for checking it against what its key wants.
    indirect enum Kind: Equatable {
        case string, bool, integer
        case list([Kind])
    }

    /// One `key = value` line: the `[table]` it sits in (nil: the top), the
    /// key, its line and its value's kind.
    struct Entry: Equatable {
        let table: String?
        let key: String
        let line: Int
        let kind: Kind
    }

    /// The entries of `text`, or the first problem with its syntax.
    static func read(_ text: String) -> Result<[Entry], Problem> {
        var parser = Parser(Array(text.unicodeScalars))
        do {
            try parser.document()
            return .success(parser.entries)
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem(line: parser.line, message: "\(error)"))
        }
    }

    static func check(_ text: String) -> Problem? {
        if case .failure(let problem) = read(text) { return problem }
        return nil
    }

    private struct Parser {
        let s: [Unicode.Scalar]
        var i = 0
        var line = 1
        var table: String?
        var entries: [Entry] = []

        init(_ scalars: [Unicode.Scalar]) { s = scalars }

        var atEnd: Bool { i >= s.count }
        var current: Unicode.Scalar? { i < s.count ? s[i] : nil }

        func fail(_ message: String) -> Problem { Problem(line: line, message: message) }

        func describe(_ c: Unicode.Scalar?) -> String {
            guard let c else { return "the end of the file" }
            if c.value < 0x20 || c.value == 0x7F { return "a control character (U+\(String(c.value, radix: 16, uppercase: true)))" }
            if c == "\u{FFFD}" { return "bytes that are not UTF-8" }
            return "'\(Character(c))'"
        }

        mutating func spaces() {
            while let c = current, c == " " || c == "\t" { i += 1 }
        }

        /// A comment (if any), then the end of the line or of the file.
        mutating func endOfLine() throws {
            spaces()
            if current == "#" {
                i += 1
                while let c = current, c != "\n", c != "\r" {
                    if (c.value < 0x20 && c != "\t") || c.value == 0x7F { throw fail("a comment holds \(describe(c))") }
                    i += 1
                }
            }
            try newline()
        }

        mutating func newline() throws {
            if atEnd { return }
            if current == "\r" {
                i += 1
                guard current == "\n" else { throw fail("a carriage return not followed by a line break") }
            }
            guard current == "\n" else { throw fail("unexpected \(describe(current)) after the value") }
            i += 1
            line += 1
        }

        mutating func document() throws {
            if current == "\u{FEFF}" { i += 1 }  // a byte-order mark
            while !atEnd {
                spaces()
                switch current {
                case "#", "\n", "\r", nil:
                    try endOfLine()
                case "[":
                    i += 1
                    if current == "[" { throw fail("arrays of tables ([[…]]) are not used in a nextup config file") }
                    spaces()
                    table = try key()
                    spaces()
                    guard current == "]" else { throw fail("a table name must end with ']', found \(describe(current))") }
                    i += 1
                    try endOfLine()
                default:
                    let name = try key(), at = line
                    spaces()
                    guard current == "=" else { throw fail("expected '=' after the key, found \(describe(current))") }
                    i += 1
                    spaces()
                    entries.append(Entry(table: table, key: name, line: at, kind: try value(depth: 0)))
                    try endOfLine()
                }
            }
        }

        static func isBare(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_" || c == "-"
        }

        /// A key; returns its name (a quoted key without its quotes, escapes as written).
        mutating func key() throws -> String {
            let start = i
            switch current {
            case "\"": try basicString()
            case "'": try literalString()
            case let c? where Self.isBare(c):
                while let c = current, Self.isBare(c) { i += 1 }
            default:
                throw fail("expected a key, found \(describe(current))")
            }
            var name = String(String.UnicodeScalarView(s[start..<i]))
            if name.first == "\"" || name.first == "'" { name = String(name.dropFirst().dropLast()) }
            spaces()
            if current == "." { throw fail("dotted keys are not used in a nextup config file: write a [table]") }
            return name
        }

        mutating func value(depth: Int) throws -> Kind {
            guard depth < 8 else { throw fail("lists nested too deep") }
            switch current {
            case "\"": try basicString(); return .string
            case "'": try literalString(); return .string
            case "[": return .list(try list(depth: depth))
            case "t": try word("true"); return .bool
            case "f": try word("false"); return .bool
            case let c? where c == "+" || c == "-" || ("0"..."9").contains(c):
                try integer()
                return .integer
            default:
                throw fail("expected a value (a \"string\", a [list], true, false or a whole number), found \(describe(current))")
            }
        }

        mutating func word(_ w: String) throws {
            for scalar in w.unicodeScalars {
                guard current == scalar else { throw fail("expected a value (a \"string\", a [list], true, false or a whole number)") }
                i += 1
            }
        }

        mutating func integer() throws {
            if current == "+" || current == "-" { i += 1 }
            var digits = 0
            while let c = current, ("0"..."9").contains(c) { i += 1; digits += 1 }
            guard digits > 0, digits <= 18 else { throw fail("a number must be a whole number of at most 18 digits") }
            if let c = current, Self.isBare(c) || c == "." || c == ":" {
                throw fail("only strings, lists, true/false and whole numbers are used in a nextup config file")
            }
        }

        /// `[ v, v, … ]`, across lines, with comments and a trailing comma.
        mutating func list(depth: Int) throws -> [Kind] {
            i += 1  // [
            var kinds: [Kind] = []
            while true {
                try blanks()
                if current == "]" { i += 1; return kinds }
                kinds.append(try value(depth: depth + 1))
                try blanks()
                if current == "," { i += 1; continue }
                if current == "]" { i += 1; return kinds }
                throw fail("expected ',' or ']' in a list, found \(describe(current))")
            }
        }

        /// White space, line breaks and comments inside a list.
        mutating func blanks() throws {
            while true {
                spaces()
                guard let c = current else { throw fail("a list is not closed with ']'") }
                if c == "#" || c == "\n" || c == "\r" { try endOfLine() } else { return }
            }
        }

        mutating func basicString() throws {
            i += 1  // "
            if current == "\"", i + 1 < s.count, s[i + 1] == "\"" {
                throw fail("multi-line strings (\"\"\") are not used in a nextup config file")
            }
            while true {
                guard let c = current else { throw fail("a string is not closed with '\"'") }
                i += 1
                switch c {
                case "\"": return
                case "\\":
                    guard let e = current else { throw fail("a string is not closed with '\"'") }
                    i += 1
                    switch e {
                    case "b", "t", "n", "f", "r", "\"", "\\": break
                    case "u": try hex(4)
                    case "U": try hex(8)
                    default: throw fail("unknown escape '\\\(Character(e))' in a string")
                    }
                case "\n", "\r":
                    throw fail("a string is not closed with '\"' on its line")
                default:
                    if (c.value < 0x20 && c != "\t") || c.value == 0x7F { throw fail("a string holds \(describe(c))") }
                }
            }
        }

        mutating func hex(_ count: Int) throws {
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let c = current, let d = Int(String(Character(c)), radix: 16) else {
                    throw fail("\\u and \\U take \(count) hexadecimal digits")
                }
                value = value << 4 | UInt32(d)
                i += 1
            }
            guard Unicode.Scalar(value) != nil else { throw fail("an escape names no Unicode character") }
        }

        mutating func literalString() throws {
            i += 1  // '
            if current == "'", i + 1 < s.count, s[i + 1] == "'" {
                throw fail("multi-line strings (''') are not used in a nextup config file")
            }
            while true {
                guard let c = current else { throw fail("a string is not closed with \"'\"") }
                i += 1
                if c == "'" { return }
                if c == "\n" || c == "\r" { throw fail("a string is not closed with \"'\" on its line") }
                if (c.value < 0x20 && c != "\t") || c.value == 0x7F { throw fail("a string holds \(describe(c))") }
            }
        }
    }
}
