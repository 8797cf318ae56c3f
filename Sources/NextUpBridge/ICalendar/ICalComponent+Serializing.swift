extension ICalComponent {
    /// The component as iCalendar text: one content line per property, CRLF
    /// line ends (a trailing one too), lines folded at 75 octets
    /// (``ICalText/fold(_:limit:)``), parameter values quoted when they hold
    /// `:`, `;` or `,`. A property read from a file is written as the file
    /// had it (``ICalProperty/raw``). `lineEnd` is CRLF unless a file being
    /// patched used LF.
    public func serialized(lineEnd: String = "\r\n") -> String {
        var out = ""
        write(into: &out, lineEnd: lineEnd)
        return out
    }

    private func write(into out: inout String, lineEnd: String) {
        out += "BEGIN:\(name)" + lineEnd
        for property in properties {
            if let raw = property.raw {
                out += lineEnd == "\r\n" ? raw : raw.replacingOccurrences(of: "\r\n", with: lineEnd)
            } else {
                let folded = ICalText.fold(Self.contentLine(property))
                out += lineEnd == "\r\n" ? folded : folded.replacingOccurrences(of: "\r\n", with: lineEnd)
            }
            out += lineEnd
        }
        for component in components { component.write(into: &out, lineEnd: lineEnd) }
        out += "END:\(name)" + lineEnd
    }

    /// One unfolded content line for `property`.
    static func contentLine(_ property: ICalProperty) -> String {
        var line = property.name
        for parameter in property.parameters {
            line += ";\(parameter.name)="
            line += parameter.values.map { value in
                value.unicodeScalars.contains { ":;,".unicodeScalars.contains($0) } ? "\"\(value)\"" : value
            }.joined(separator: ",")
        }
        line += ":"
        line += property.value
        return line
    }
}
