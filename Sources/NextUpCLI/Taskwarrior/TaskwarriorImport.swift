import Foundation
import NextUpCore

/// What a Taskwarrior file gives an import: a record for every task that can
/// be one, and for every other item why not.
///
/// Contract: every item is read, mapped and checked on its own, so that all
/// the bad ones are named at once (`item N (uuid): why`, in file order); a
/// uuid given twice is bad at its second place. The records are in file
/// order and never hold a bad item. Recurring series are grouped first
/// (``TaskwarriorSeries``): a template and the instances made ahead of the
/// live one give no record of their own.
struct TaskwarriorImport {
    var records: [TaskJSON] = []
    /// One line per bad item.
    var bad: [String] = []
    /// How many recurring templates the records hold (kept hidden: their
    /// period has no nextup rule, or none of their instances is in the file).
    var templates = 0
    /// How many templates became nextup series (``TaskwarriorSeries``).
    var series = 0

    init(_ data: Data, _ options: TaskwarriorMapping.Options) throws {
        var seen: [TaskID: Int] = [:]
        let items = try TaskwarriorReader.readEach(data)
        let found = TaskwarriorSeries(items.compactMap { try? $0.get() }, options)
        series = found.templates.count
        for (index, item) in items.enumerated() {
            do {
                let task = try item.get()
                let place = "item \(index + 1) (\(task.uuid.rawValue))"
                if let first = seen[task.uuid] { throw TaskInputError("\(place): its uuid is item \(first)'s too") }
                seen[task.uuid] = index + 1
                if found.templates.contains(task.uuid) || found.ahead.contains(task.uuid) { continue }
                do {
                    records.append(try TaskwarriorMapping.record(task, options, place: found.place(of: task)))
                } catch let error as TaskInputError {
                    throw TaskInputError("\(place): \(error.message)")
                }
                if task.status == .recurring { templates += 1 }
            } catch let error as TaskInputError {
                bad.append(error.message)
            }
        }
    }
}
