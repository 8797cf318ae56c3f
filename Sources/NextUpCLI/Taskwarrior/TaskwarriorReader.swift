import Foundation
import NextUpCore

/// Reads what `task export` writes — a JSON array of task objects (2.6, 3.x)
/// or one object per line — into ``TaskwarriorTask``s, with `JSONDecoder`.
///
/// Contract: all or nothing. Any bad item (not an object, no `uuid`, an
/// unknown `status`, a date not in Taskwarrior's form, a `tags` that is not a
/// list of strings, …) throws a ``TaskInputError`` of one line that names the
/// item (its position, and its uuid when it has one); nothing is returned.
enum TaskwarriorReader {
    static func read(_ data: Data) throws -> [TaskwarriorTask] {
        func isBlank(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
        guard let first = data.first(where: { !isBlank($0) }) else {
            throw TaskInputError("the file is empty; expected what `task export` writes")
        }
        let decoder = JSONDecoder()
        if first == UInt8(ascii: "[") {
            do {
                return try decoder.decode([TaskwarriorTask].self, from: data)
            } catch let error as TaskInputError {
                throw error
            } catch {
                throw TaskInputError("the file is not valid JSON (is it cut short?); expected what `task export` writes")
            }
        }
        guard first == UInt8(ascii: "{") else {
            throw TaskInputError("the file is neither a JSON array of tasks nor one task object per line, as `task export` writes")
        }
        var tasks: [TaskwarriorTask] = []
        for (number, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where line.contains(where: { !isBlank($0) }) {
            decoder.userInfo[TaskwarriorTask.placeKey] = "line \(number + 1)"
            do {
                tasks.append(try decoder.decode(TaskwarriorTask.self, from: Data(line)))
            } catch let error as TaskInputError {
                throw error
            } catch {
                throw TaskInputError("line \(number + 1) is not valid JSON (is the file cut short?)")
            }
        }
        return tasks
    }
}
