/// One iCalendar property (RFC 5545 §3.1 "content line"): a name, its
/// parameters, and its value exactly as written (TEXT escapes kept; see
/// ``text`` for the unescaped value).
///
/// Contract: names are compared upper-cased (iCalendar names are
/// case-insensitive), so ``name`` is stored upper-cased; parameter values are
/// kept as written, without their double quotes. Two properties are equal
/// when their name, parameters and value are; ``raw`` is not compared.
public struct ICalProperty: Hashable, Sendable {
    public var name: String
    public var parameters: [ICalParameter] { didSet { raw = nil } }
    /// The raw value (escapes as in the file).
    public var value: String { didSet { raw = nil } }
    /// The property's lines exactly as a parsed file held them (folds
    /// included, joined with CRLF), written again as they were; nil for a
    /// property made here. Any change to the property clears it.
    public var raw: String?

    public static func == (lhs: ICalProperty, rhs: ICalProperty) -> Bool {
        lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(parameters)
        hasher.combine(value)
    }

    /// The content line, unfolded, as the file spelled it (or as it would be written).
    public var contentLine: String { ICalComponent.contentLine(self) }

    public init(name: String, parameters: [ICalParameter] = [], value: String) {
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = value
    }

    /// A property whose value is TEXT: `text` is escaped (``ICalText/escape(_:)``).
    public init(name: String, parameters: [ICalParameter] = [], text: String) {
        self.init(name: name, parameters: parameters, value: ICalText.escape(text))
    }

    /// The value read as TEXT (escapes undone).
    public var text: String { ICalText.unescape(value) }

    /// The value read as a list of TEXT (CATEGORIES): split on unescaped commas.
    public var textList: [String] { ICalText.splitList(value).map(ICalText.unescape) }

    /// The first value of the parameter `name` (case-insensitive), if present.
    public func parameter(_ name: String) -> String? {
        let upper = name.uppercased()
        return parameters.first { $0.name == upper }?.values.first
    }
}

/// One property parameter (`;NAME=value,value`).
public struct ICalParameter: Hashable, Sendable {
    /// Upper-cased.
    public var name: String
    /// The values, without surrounding double quotes.
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name.uppercased()
        self.values = values
    }
}
