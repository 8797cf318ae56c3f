/// An iCalendar component (`BEGIN:NAME` … `END:NAME`): its properties in file
/// order and its sub-components. Parse with ``ICalComponent/parse(_:)``,
/// write with ``ICalComponent/serialized()``.
public struct ICalComponent: Hashable, Sendable {
    /// Upper-cased (`VCALENDAR`, `VTODO`, …).
    public var name: String
    public var properties: [ICalProperty]
    public var components: [ICalComponent]

    public init(name: String, properties: [ICalProperty] = [], components: [ICalComponent] = []) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
    }

    /// The first property named `name` (case-insensitive).
    public func property(_ name: String) -> ICalProperty? {
        let upper = name.uppercased()
        return properties.first { $0.name == upper }
    }

    /// Every property named `name` (case-insensitive), in file order.
    public func properties(_ name: String) -> [ICalProperty] {
        let upper = name.uppercased()
        return properties.filter { $0.name == upper }
    }
}
