import Foundation
import NextUpCore

extension VTodoView {
    /// Reads the view of a VTODO, normalised as the store would hold it
    /// (titles trimmed and on one line, categories and tags checked, dates
    /// read as dates).
    ///
    /// Contract: throws ``ICalParseError`` (one line) for a VTODO the store
    /// could not hold: no `UID`, a title, notes or category beyond the
    /// store's limits. An `RRULE` nextup cannot hold reads as none. Values a property cannot carry (a `PRIORITY` that is
    /// not a number, a malformed `DUE`, an unknown urgency) read as unset, as
    /// clients do; an unknown extension value is left out (no change). A
    /// due time in UTC or a known `TZID` is read as its date in `zone`.
    public init(vtodo: ICalComponent, zone: LocalZone = .system) throws(ICalParseError) {
        guard let uid = vtodo.property("UID")?.text.trimmed, !uid.isEmpty else {
            throw ICalParseError("the VTODO has no UID")
        }
        guard uid.utf8.count <= TaskText.maxLabelBytes else { throw ICalParseError("its UID is longer than \(TaskText.maxLabelBytes) bytes") }
        let summary = vtodo.property("SUMMARY")?.text ?? ""
        let title: String
        do {
            title = try TaskText.title(summary)
        } catch {
            if summary.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { title = Self.untitled } else {
                throw ICalParseError("its SUMMARY cannot be a title (\(error))")
            }
        }
        self.init(uid: uid, title: title)
        if let description = vtodo.property("DESCRIPTION")?.text {
            do { notes = try TaskText.notes(description) } catch { throw ICalParseError("its DESCRIPTION cannot be notes (\(error))") }
        }
        if let raw = vtodo.property("PRIORITY")?.value.trimmed, let p = Int(raw) {
            switch p {
            case 1...4: importance = 3
            case 5: importance = 2
            case 6...9: importance = 1
            default: importance = nil
            }
        }
        due = vtodo.property("DUE").flatMap { ICalDate.localDate($0, zone: zone) }?.description
        start = vtodo.property("DTSTART").flatMap { ICalDate.localDate($0, zone: zone) }?.description
        rrule = vtodo.property("RRULE").flatMap { try? RecurrenceRule.parseRRULE($0.value) }?.rrule
        let status = vtodo.property("STATUS")?.value.trimmed.uppercased()
        let completedTime = vtodo.property("COMPLETED").flatMap { ICalDate.instant($0.value.trimmed, zone: zone) }
        if status == "COMPLETED" || (status == nil && completedTime != nil) {
            completedAt = completedTime ?? 0
        }
        cancelled = status == "CANCELLED"
        var list: [String] = []
        for property in vtodo.properties("CATEGORIES") {
            for raw in property.textList {
                guard let name = try? TaskText.category(raw) else { continue }
                if !list.contains(name) { list.append(name) }
            }
        }
        categories = list
        for ext in Extension.allCases {
            guard let property = vtodo.property(ext.rawValue) else { continue }
            let value = property.text.trimmed
            if value.isEmpty { self[ext] = ""; continue }
            switch ext {
            case .urgency: if let u = try? Urgency.parse(value) { self[ext] = u.rawValue }
            case .duration: if let d = try? TaskDuration.parse(value) { self[ext] = String(d.minutes) }
            case .category: if let c = try? TaskText.category(value) { self[ext] = c }
            case .nextUp: if OrderKey.isValid(value) { self[ext] = value }
            }
        }
    }
}

private extension String {
    var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
