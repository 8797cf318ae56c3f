import Foundation
import NextUpCore

/// Reads what `task export` writes — a JSON array of task objects (2.6, 3.x)
/// or one object per line — into ``TaskwarriorTask``s, with `JSONDecoder`.
///
/// Contract: a file that is not such JSON at all throws a ``TaskInputError``
/// of one line. Otherwise every item is read on its own: ``readEach(_:)``
/// gives each item's task, or why it cannot be one (not an object, no
/// `uuid`, an unknown `status`, a date not in Taskwarrior's form, a `tags`
/// that is not a list of strings, …) in one line that names the item (its
/// position, and its uuid when it has one); ``read(_:)`` is all or nothing.
enum TaskwarriorReader {
    /// Every task, or the first bad item's reason thrown.
    static func read(_ data: Data) throws -> [TaskwarriorTask] {
        try readEach(data).map { try $0.get() }
    }

    /// Each item in file order: its task, or why it is not one.
    static func readEach(_ data: Data) throws -> [Result<TaskwarriorTask, TaskInputError>] {
        func isBlank(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
        guard let first = data.first(where: { !isBlank($0) }) else {
            throw TaskInputError("the file is empty; expected what `task export` writes")
        }
        let decoder = JSONDecoder()
        if first == UInt8(ascii: "[") {
            do {
                return try decoder.decode([Item].self, from: data).map(\.result)
            } catch let error as TaskInputError {
                throw error
            } catch {
                throw TaskInputError("the file is not valid JSON (is it cut short?); expected what `task export` writes")
            }
        }
        guard first == UInt8(ascii: "{") else {
            throw TaskInputError("the file is neither a JSON array of tasks nor one task object per line, as `task export` writes")
        }
        var items: [Result<TaskwarriorTask, TaskInputError>] = []
        for (number, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where line.contains(where: { !isBlank($0) }) {
            decoder.userInfo[TaskwarriorTask.placeKey] = "line \(number + 1)"
            do {
                items.append(try decoder.decode(Item.self, from: Data(line)).result)
            } catch let error as TaskInputError {
                items.append(.failure(error))
            } catch {
                items.append(.failure(TaskInputError("line \(number + 1) is not valid JSON (is the file cut short?)")))
            }
        }
        return items
    }

    /// One item of the file: a task, or why it is not one.
    private struct Item: Decodable {
        let result: Result<TaskwarriorTask, TaskInputError>

        init(from decoder: any Decoder) throws {
            do { result = .success(try TaskwarriorTask(from: decoder)) } catch let error as TaskInputError { result = .failure(error) }
        }
    }
}
