extension ICalComponent {
    /// The component as iCalendar text: one content line per property, CRLF
    /// line ends (a trailing one too), lines folded at 75 octets
    /// (``ICalText/fold(_:limit:)``), parameter values quoted when they hold
    /// `:`, `;` or `,`.
    public func serialized() -> String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        out += "BEGIN:\(name)\r\n"
        for property in properties {
            out += ICalText.fold(Self.contentLine(property))
            out += "\r\n"
        }
        for component in components { component.write(into: &out) }
        out += "END:\(name)\r\n"
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
