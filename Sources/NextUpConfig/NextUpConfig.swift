import Foundation
import NextUpCore
import TOMLKit

/// The user's configuration file (TOML), shared by the TUI and the command
/// line: the peer folder, the phone bridge's vdir, the category list the `c` key cycles through, and
/// key bindings (action name → key).
///
/// Location: `$NEXTUP_CONFIG`, else `$XDG_CONFIG_HOME/nextup/config.toml`, else
/// `~/.config/nextup/config.toml`. A missing file means the defaults; a file
/// that does not parse is an error naming the file, never silently ignored.
public struct NextUpConfig: Sendable, Equatable {
    public static let defaultCategories = ["Essentials", "Deep Work", "Admin", "Learning", "Recharge"]

    /// The peer folder, as written (a leading `~/` expanded).
    public var peerFolder: String?
    /// The vdir the phone bridge keeps in step (DESIGN.md §5b), as written
    /// (a leading `~/` expanded).
    public var vdir: String?
    public var categories: [String]
    /// Key bindings from the `[keys]` table: action name → key name.
    public var keys: [String: String]
    /// The `[taskwarrior]` table: how `import --from taskwarrior` maps what
    /// Taskwarrior has and nextup names differently (the command line's
    /// options win over it).
    public var taskwarrior = Taskwarrior()
    /// `[history] keep`: how many days replaced values stay in the history
    /// (`"90d"`); nil (`"forever"`, the default): always. `nextup sync`
    /// drops older ones only once every other machine has merged past them.
    public var historyKeepDays: Int?
    /// Keys and tables in the file that nextup does not know (a typo,
    /// `pier = …`), each one line naming the file, the line and the nearest
    /// known name: not an error, but `doctor` and the TUI's start say so.
    public var unknownSettings: [String] = []

    public struct Taskwarrior: Sendable, Equatable {
        /// `category = "top-project"`: a task's category is its project's
        /// first segment (Home.Garden → Home); `"project"` (the default): the
        /// whole project.
        public var categoryFromTopProject: Bool?
        /// `urgency_from`: a tag or UDA that marks a task urgent.
        public var urgencyFrom: String?
        /// `duration_from`: a UDA holding a duration.
        public var durationFrom: String?

        public init(categoryFromTopProject: Bool? = nil, urgencyFrom: String? = nil, durationFrom: String? = nil) {
            self.categoryFromTopProject = categoryFromTopProject
            self.urgencyFrom = urgencyFrom
            self.durationFrom = durationFrom
        }
    }

    public init(peerFolder: String? = nil, categories: [String] = Self.defaultCategories, keys: [String: String] = [:]) {
        self.peerFolder = peerFolder
        self.categories = categories
        self.keys = keys
    }

    struct File: Decodable {
        var peer: String?
        var vdir: String?
        var categories: [String]?
        var keys: [String: String]?
        var taskwarrior: TaskwarriorTable?
        var history: HistoryTable?
    }

    struct HistoryTable: Decodable {
        var keep: String?
    }

    /// `"forever"` → nil; `"90d"` → 90 (1 to 36,500 days); nil when it is neither.
    static func keepDays(_ text: String) -> Int?? {
        if text == "forever" { return .some(nil) }
        guard text.hasSuffix("d"), let days = Int(text.dropLast()), (1...36_500).contains(days) else { return nil }
        return .some(days)
    }

    struct TaskwarriorTable: Decodable {
        var category: String?
        var urgencyFrom: String?
        var durationFrom: String?
        enum CodingKeys: String, CodingKey {
            case category, urgencyFrom = "urgency_from", durationFrom = "duration_from"
        }
    }

    /// The home folder a leading `~` stands for.
    private static func home(_ environment: [String: String]) -> String { environment["HOME"] ?? NSHomeDirectory() }

    /// Where the file is looked for.
    public static func defaultURL(environment: [String: String]) -> URL {
        if let path = environment["NEXTUP_CONFIG"], !path.isEmpty {
            return URL(fileURLWithPath: path.expandingTilde(home: home(environment)))
        }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("nextup/config.toml")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/nextup/config.toml")
    }

    /// Loads the file at `url`; defaults when it does not exist.
    public static func load(from url: URL, environment: [String: String] = [:]) throws -> NextUpConfig {
        guard FileManager.default.fileExists(atPath: url.path) else { return NextUpConfig() }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TaskInputError("cannot read the config file \(url.path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        // Checked first: the TOML library aborts the process on some damaged
        // files, and its type errors name no line.
        let notices: [(line: Int, notice: String)]
        do {
            notices = try ConfigSchema.check(try ConfigSyntax.read(text).get())
        } catch let problem as ConfigSyntax.Problem {
            throw TaskInputError("config file \(url.path), line \(problem.line): \(problem.message)")
        }
        let file: File
        do {
            file = try TOMLDecoder().decode(File.self, from: text)
        } catch let error as TOMLParseError {
            throw TaskInputError("config file \(url.path), line \(error.source.begin.line): \(error.description)")
        } catch {
            // Kinds were checked above; the decoder's own words never reach a person.
            throw TaskInputError("config file \(url.path) cannot be read as a nextup config file")
        }
        var config = NextUpConfig()
        config.unknownSettings = notices.map { "config file \(url.path), line \($0.line): \($0.notice)" }
        config.peerFolder = file.peer.map { $0.expandingTilde(home: home(environment)) }
        config.vdir = file.vdir.map { $0.expandingTilde(home: home(environment)) }
        if let cats = file.categories {
            let cleaned: [String]
            do { cleaned = try cats.map { try TaskText.category($0) } } catch let e as TaskInputError {
                throw TaskInputError("config file \(url.path): 'categories': \(e.message)")
            }
            guard !cleaned.isEmpty else { throw TaskInputError("config file \(url.path): 'categories' must not be empty") }
            config.categories = cleaned
        }
        config.keys = file.keys ?? [:]
        if let tw = file.taskwarrior {
            switch tw.category {
            case nil: break
            case "project": config.taskwarrior.categoryFromTopProject = false
            case "top-project": config.taskwarrior.categoryFromTopProject = true
            case let other?:
                throw TaskInputError("config file \(url.path): 'taskwarrior.category' must be \"project\" or \"top-project\", not \"\(other)\"")
            }
            config.taskwarrior.urgencyFrom = tw.urgencyFrom
            config.taskwarrior.durationFrom = tw.durationFrom
        }
        if let keep = file.history?.keep {
            guard let days = keepDays(keep) else {
                throw TaskInputError("config file \(url.path): 'history.keep' must be \"forever\" or a number of days like \"90d\", not \"\(Sanitizer.visible(keep))\"")
            }
            config.historyKeepDays = days
        }
        return config
    }
}
