extension ICalComponent {
    /// Parses an iCalendar stream into its top-level components (usually one
    /// `VCALENDAR`).
    ///
    /// Contract: lines end in CRLF or LF (a lone CR too); a line starting with
    /// a space or a tab continues the previous one (unfolding happens on bytes,
    /// so a fold inside a UTF-8 sequence is mended); the unfolded text must be
    /// UTF-8; empty lines are ignored; `BEGIN`/`END` must nest and match. Any
    /// other shape throws ``ICalParseError`` with one line saying where. A
    /// leading byte order mark is ignored. Each property keeps its lines as
    /// the file folded them (``ICalProperty/raw``), so that writing it again
    /// gives the same bytes.
    public static func parse(_ bytes: [UInt8]) throws(ICalParseError) -> [ICalComponent] {
        var roots: [ICalComponent] = []
        var stack: [ICalComponent] = []
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        for (number, raw, physical) in unfold(body) {
            guard let line = String(validating: raw, as: UTF8.self) else {
                throw ICalParseError("line \(number) is not UTF-8")
            }
            if line.isEmpty { continue }
            var property = try parseLine(line, number: number)
            property.raw = String(decoding: physical, as: UTF8.self)
            switch property.name {
            case "BEGIN":
                stack.append(ICalComponent(name: property.value))
            case "END":
                guard let top = stack.popLast() else { throw ICalParseError("line \(number): END:\(property.value) without BEGIN") }
                guard top.name == property.value.uppercased() else {
                    throw ICalParseError("line \(number): END:\(property.value) closes BEGIN:\(top.name)")
                }
                if stack.isEmpty { roots.append(top) } else { stack[stack.count - 1].components.append(top) }
            default:
                guard !stack.isEmpty else { throw ICalParseError("line \(number): \(property.name) outside any component") }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last { throw ICalParseError("BEGIN:\(open.name) is never closed") }
        if roots.isEmpty { throw ICalParseError("no iCalendar component in it") }
        return roots
    }

    /// The logical lines (unfolded), each with the number of its first
    /// physical line and its physical lines joined with CRLF.
    static func unfold(_ bytes: [UInt8]) -> [(Int, [UInt8], [UInt8])] {
        var lines: [(Int, [UInt8], [UInt8])] = []
        var current: [UInt8] = []
        var physicalLines: [UInt8] = []
        var currentStart = 1
        var physical = 1
        var i = 0
        var started = false
        let n = bytes.count
        while i <= n {
            // Find the end of this physical line.
            var end = i
            while end < n, bytes[end] != 10, bytes[end] != 13 { end += 1 }
            let piece = bytes[i..<end]
            if let first = piece.first, first == 32 || first == 9, started {
                current += piece.dropFirst()
                physicalLines += [13, 10]
                physicalLines += piece
            } else {
                if started { lines.append((currentStart, current, physicalLines)) }
                current = Array(piece)
                physicalLines = Array(piece)
                currentStart = physical
                started = true
            }
            if end >= n { break }
            // Skip the line break: CRLF, LF or CR.
            if bytes[end] == 13, end + 1 < n, bytes[end + 1] == 10 { i = end + 2 } else { i = end + 1 }
            physical += 1
            if i == n { break }
        }
        if started { lines.append((currentStart, current, physicalLines)) }
        return lines
    }

    /// One unfolded content line: `name *(";" param) ":" value`.
    static func parseLine(_ line: String, number: Int) throws(ICalParseError) -> ICalProperty {
        let scalars = Array(line.unicodeScalars)
        var i = 0
        func isNameScalar(_ s: Unicode.Scalar) -> Bool {
            // RFC 5545 allows letters, digits and "-"; clients also write "_" (Synology's PERCENT_COMPLETE).
            (s >= "A" && s <= "Z") || (s >= "a" && s <= "z") || (s >= "0" && s <= "9") || s == "-" || s == "_"
        }
        func readName() -> String {
            var name = String.UnicodeScalarView()
            while i < scalars.count, isNameScalar(scalars[i]) { name.append(scalars[i]); i += 1 }
            return String(name)
        }
        let name = readName()
        guard !name.isEmpty else { throw ICalParseError("line \(number) is not a content line (no property name)") }
        var parameters: [ICalParameter] = []
        while i < scalars.count, scalars[i] == ";" {
            i += 1
            let pname = readName()
            guard !pname.isEmpty, i < scalars.count, scalars[i] == "=" else {
                throw ICalParseError("line \(number): a parameter of \(name.uppercased()) is malformed")
            }
            i += 1
            var values: [String] = []
            while true {
                var value = String.UnicodeScalarView()
                if i < scalars.count, scalars[i] == "\"" {
                    i += 1
                    while i < scalars.count, scalars[i] != "\"" { value.append(scalars[i]); i += 1 }
                    guard i < scalars.count else { throw ICalParseError("line \(number): an unclosed quote in \(name.uppercased())") }
                    i += 1
                } else {
                    while i < scalars.count, !";:,\"".unicodeScalars.contains(scalars[i]) { value.append(scalars[i]); i += 1 }
                }
                values.append(String(value))
                if i < scalars.count, scalars[i] == "," { i += 1; continue }
                break
            }
            parameters.append(ICalParameter(name: pname, values: values))
        }
        guard i < scalars.count, scalars[i] == ":" else {
            throw ICalParseError("line \(number): \(name.uppercased()) has no ':' before its value")
        }
        i += 1
        var value = String.UnicodeScalarView()
        value.append(contentsOf: scalars[i...])
        return ICalProperty(name: name, parameters: parameters, value: String(value))
    }
}
