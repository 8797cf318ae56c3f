import Foundation
import NextUpCore

/// What a Taskwarrior file gives an import: a record for every task that can
/// be one, and for every other item why not.
///
/// Contract: every item is read, mapped and checked on its own, so that all
/// the bad ones are named at once (`item N (uuid): why`, in file order); a
/// uuid given twice is bad at its second place. The records are in file
/// order and never hold a bad item.
struct TaskwarriorImport {
    var records: [TaskJSON] = []
    /// One line per bad item.
    var bad: [String] = []
    /// How many recurring templates the records hold (kept hidden).
    var templates = 0

    init(_ data: Data, _ options: TaskwarriorMapping.Options) throws {
        var seen: [TaskID: Int] = [:]
        for (index, item) in try TaskwarriorReader.readEach(data).enumerated() {
            do {
                let task = try item.get()
                let place = "item \(index + 1) (\(task.uuid.rawValue))"
                if let first = seen[task.uuid] { throw TaskInputError("\(place): its uuid is item \(first)'s too") }
                seen[task.uuid] = index + 1
                do {
                    records.append(try TaskwarriorMapping.record(task, options))
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
