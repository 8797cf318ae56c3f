import Foundation
import NextUpCore

/// The recurring series of a Taskwarrior file, as nextup series (README,
/// "Coming from Taskwarrior").
///
/// Taskwarrior keeps a series as a template (status `recurring`, its period
/// in `recur`, which instances it made in `mask`) and one task per instance
/// (`parent`: the template's uuid, `imask`: its index), each under a random
/// uuid, several pending at once when it made some ahead or some were
/// missed. nextup keeps one live task per series, occurrence *n* under an id
/// derived from the series and *n* (``OccurrenceID``).
///
/// Contract: the series' id is the template's uuid and instance `imask` *k*
/// is occurrence *k+1*, so every import of one instance lands on one task
/// whatever its uuid; the instance's uuid is kept as the task's
/// `external_id`. Completed and deleted instances are done and deleted
/// occurrences (the history); the pending instance of lowest index is the
/// live occurrence; pending instances after it (made ahead, or missed and
/// piled up) are not imported: their uuids are remembered on the live
/// occurrence (``Place/ahead``) so that the occurrence nextup makes for that
/// index is written back under the same uuid, never as a second one. The
/// template itself is no task: its attributes ride on each of its instances
/// (``Place/template``) for the way back. A template whose period nextup has
/// no rule for (``TaskwarriorRecurrence``), an instance whose template is
/// not in the file and a second instance of one index stay plain tasks.
/// A task nextup wrote as plain because Taskwarrior has no period for its
/// rule (`nextup_occurrence`, `nextup_recur`) is its occurrence again.
struct TaskwarriorSeries {
    /// Where an instance goes in its series.
    struct Place {
        var occurrence: OccurrenceID
        /// The series' rule; nil once stopped (the template deleted).
        var rule: RecurrenceRule?
        /// The template's attributes as JSON text.
        var template: String?
        /// The uuids of the instances made ahead of this one, by occurrence number.
        var ahead: [Int: String] = [:]
    }

    /// The attribute that names the occurrence of a task written without a template.
    static let occurrenceMarker = "nextup_occurrence"
    /// The attribute that holds the rule (RRULE) of a task written without a template.
    static let ruleMarker = "nextup_recur"
    /// Kept attributes of an occurrence that are nextup's own, never written back as such.
    static let templateKey = "nextup_template"
    static let aheadKey = "nextup_ahead"
    /// The series fields of an instance as Taskwarrior last wrote it, so
    /// that the way back tells nextup's edits from that instance's own.
    static let instanceKey = "nextup_instance"
    /// The attributes a template shares with its instances.
    static let seriesKeys = ["description", "project", "priority", "tags"]

    /// Templates made into series (no record of their own).
    private(set) var templates: Set<TaskID> = []
    /// Pending instances after their series' live one (no record).
    private(set) var ahead: Set<TaskID> = []
    private var places: [TaskID: Place] = [:]

    init(_ tasks: [TaskwarriorTask], _ options: TaskwarriorMapping.Options) {
        var series: [TaskID: (template: TaskwarriorTask, rule: RecurrenceRule)] = [:]
        for t in tasks where Self.isTemplate(t) {
            guard let word = t.other["recur"].flatMap(TaskwarriorMapping.unquoted), let due = t.due,
                  let rule = TaskwarriorRecurrence.rule(word, firstDue: TaskwarriorMapping.localDate(due, options),
                                                        until: Self.date(t.other["until"], options)) else { continue }
            series[t.uuid] = (t, rule)
        }
        var instances: [TaskID: [(number: Int, task: TaskwarriorTask)]] = [:]
        for t in tasks where !Self.isTemplate(t) {
            if let parent = t.other["parent"].flatMap(TaskwarriorMapping.unquoted).flatMap(TaskID.init), series[parent] != nil,
               let index = t.other["imask"].flatMap(Double.init), index >= 0, index < 1_000_000, index == index.rounded() {
                instances[parent, default: []].append((Int(index) + 1, t))
            } else if let text = t.other[Self.occurrenceMarker].flatMap(TaskwarriorMapping.unquoted), let occurrence = OccurrenceID(text),
                      t.other["parent"] == nil {
                let rule = t.other[Self.ruleMarker].flatMap(TaskwarriorMapping.unquoted).flatMap { try? RecurrenceRule.parse($0) }
                places[t.uuid] = Place(occurrence: occurrence, rule: rule)
            }
        }
        // A template none of whose instances is in the file stays a record.
        for (id, list) in instances {
            let (template, rule) = series[id]!
            templates.insert(id)
            let text = TaskwarriorMapping.json(template)
            let stopped = template.status != .recurring
            var numbers: Set<Int> = []
            let unique = list.filter { numbers.insert($0.number).inserted }
            let pending = unique.filter { $0.task.status == .pending || $0.task.status == .waiting }
            let live = pending.map(\.number).min()
            var aheadOfLive: [Int: String] = [:]
            for (number, task) in pending where number > live! {
                ahead.insert(task.uuid)
                aheadOfLive[number] = task.uuid.rawValue
            }
            for (number, task) in unique where !ahead.contains(task.uuid) {
                places[task.uuid] = Place(occurrence: OccurrenceID(series: id, number: number), rule: stopped ? nil : rule,
                                          template: text, ahead: number == live ? aheadOfLive : [:])
            }
        }
    }

    /// Where `task` goes, when it is an occurrence of a series.
    func place(of task: TaskwarriorTask) -> Place? { places[task.uuid] }

    /// A template: `recur` and no `parent`, recurring or (stopped) with a `mask`.
    static func isTemplate(_ t: TaskwarriorTask) -> Bool {
        t.other["parent"] == nil && t.other["recur"] != nil && (t.status == .recurring || t.other["mask"] != nil)
    }

    static func date(_ json: String?, _ options: TaskwarriorMapping.Options) -> DueDate? {
        json.flatMap(TaskwarriorMapping.unquoted).flatMap(TaskwarriorDate.parse).map { TaskwarriorMapping.localDate($0, options) }
    }
}
