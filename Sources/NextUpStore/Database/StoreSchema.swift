import Foundation
import GRDB

/// The store's schema and its versioned migrations.
///
/// Contract: every released schema version is a migration here, applied in
/// order, never edited once released; `PRAGMA user_version` holds the newest
/// applied version and `PRAGMA application_id` marks the file as nextup's. Each
/// released version has a fixture database under `Tests/NextUpStoreTests/Fixtures`
/// that the tests open with the current code.
public enum StoreSchema {
    /// `PRAGMA application_id` of every nextup store ("NXUP").
    public static let applicationID: Int32 = 0x4E58_5550
    /// The newest schema version this build knows.
    public static var currentVersion: Int { migrationNames.count }

    /// The page size of every store this build creates, set before its first
    /// table (``setPageSizeIfEmpty(_:)``); a store made by an earlier build
    /// keeps the size it was made with (SQLite reads any).
    ///
    /// 16 KiB rather than SQLite's 4 KiB: fewer, fuller B-tree pages.
    public static let pageSize = 16_384

    /// Sets ``pageSize`` on a database that has no page yet (a new, empty
    /// file); on any other it does nothing. Call before the first migration
    /// and before `journal_mode = WAL` (a WAL database keeps its page size).
    static func setPageSizeIfEmpty(_ db: Database) throws {
        guard try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 else { return }
        try db.execute(sql: "PRAGMA page_size = \(pageSize)")
    }

    static let migrationNames = ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15"]

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE task (
                    id TEXT PRIMARY KEY NOT NULL,
                    title TEXT NOT NULL DEFAULT '',
                    notes TEXT NOT NULL DEFAULT '',
                    urgency TEXT,
                    importance INTEGER,
                    duration INTEGER,
                    category TEXT,
                    due TEXT,
                    completed_at INTEGER,
                    next_up TEXT,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    created INTEGER NOT NULL DEFAULT 0,
                    source TEXT,
                    external_id TEXT,
                    modified INTEGER NOT NULL DEFAULT 0,
                    versions TEXT NOT NULL DEFAULT '{}'
                ) WITHOUT ROWID;
                CREATE INDEX task_open ON task(created) WHERE deleted = 0 AND completed_at IS NULL;
                CREATE INDEX task_next_up ON task(next_up) WHERE next_up IS NOT NULL;
                CREATE INDEX task_done ON task(completed_at) WHERE completed_at IS NOT NULL;
                CREATE INDEX task_external ON task(source, external_id) WHERE external_id IS NOT NULL;
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    task_id TEXT NOT NULL,
                    changes TEXT NOT NULL
                );
                """)
            try db.execute(sql: "INSERT INTO meta(key, value) VALUES ('replica_id', ?), ('clock', '0')",
                           arguments: [ReplicaID.make().rawValue])
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        // v2: a covering index of what the lists are filtered and ordered by, so
        // that listing 100,000 open tasks reads a few MB of index instead of the
        // whole table (TaskStore+TUI.swift).
        m.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE INDEX task_list ON task(next_up, deleted, completed_at, urgency, importance, duration, category, due, created)
                    WHERE deleted = 0 AND completed_at IS NULL;
                PRAGMA user_version = 2;
                """)
        }
        // v3: the `extra` column holds the values of registers that are not
        // known fields — tag elements (`tag:<name>`) and opaque fields written
        // by a newer nextup — as one JSON object (ExtraRegisters.swift).
        m.registerMigration("v3") { db in
            try db.execute(sql: """
                ALTER TABLE task ADD COLUMN extra TEXT;
                PRAGMA user_version = 3;
                """)
        }
        // v4: the undo journal — for each recent local change made through
        // the intent-named writes, the fields' earlier values and the versions
        // the change left (UndoJournal.swift); `nextup undo` takes the newest
        // back only while those versions still stand.
        m.registerMigration("v4") { db in
            try db.execute(sql: """
                CREATE TABLE undo_journal (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    task_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    changes TEXT NOT NULL,
                    prior TEXT NOT NULL,
                    at INTEGER NOT NULL
                );
                PRAGMA user_version = 4;
                """)
        }
        // v5: a third of the bytes per task. The versions column names each
        // replica and each version once (``VersionsColumn``:
        // `@<replica>,=<hex>,title,notes,…` instead of `title:<hex>@<replica>`
        // per field), and an outbox entry
        // names the fields and versions a write left instead of a copy of
        // their values (``Outbox``). Both rewritten here, in the migration's
        // transaction.
        m.registerMigration("v5") { db in
            let tasks = try Row.fetchAll(db, sql: "SELECT id, versions FROM task")
            let updateTask = try db.makeStatement(sql: "UPDATE task SET versions = ? WHERE id = ?")
            for row in tasks {
                try updateTask.execute(arguments: [VersionsColumn.encode(VersionsColumn.decodeLegacy(row[1])), row[0] as String])
            }
            let entries = try Row.fetchAll(db, sql: "SELECT seq, task_id, changes FROM outbox")
            let updateEntry = try db.makeStatement(sql: "UPDATE outbox SET changes = ? WHERE seq = ?")
            for row in entries {
                let changes = ChangeListJSON.decode(task: row[1], changes: row[2])
                let refs = Dictionary(changes.map { ($0.field, $0.version) }, uniquingKeysWith: { _, later in later })
                try updateEntry.execute(arguments: [VersionsColumn.encode(refs), row[0] as Int64])
            }
            try db.execute(sql: "PRAGMA user_version = 5")
        }
        // v6: `title_fold`, the title folded by Core's ``TextMatch/fold(_:)``
        // (written with every row by `TaskRow.save`; filled here through the
        // same function), added to the covering index `task_list`, so that
        // the TUI's filter reads 100,000 folded titles from the index instead
        // of every row's page, and folds none of them per key
        // (TaskStore+TUI.swift).
        m.registerMigration("v6") { db in
            ListSQL.registerFold(db)
            try db.execute(sql: """
                ALTER TABLE task ADD COLUMN title_fold TEXT NOT NULL DEFAULT '';
                UPDATE task SET title_fold = nextup_fold(title);
                DROP INDEX task_list;
                CREATE INDEX task_list ON task(next_up, deleted, completed_at, urgency, importance, duration, category, due, created, title_fold)
                    WHERE deleted = 0 AND completed_at IS NULL;
                PRAGMA user_version = 6;
                """)
        }
        // v7: the covering index `task_list` with `created` right after
        // `next_up` (released; kept as it shipped).
        m.registerMigration("v7") { db in
            try db.execute(sql: """
                DROP INDEX task_list;
                CREATE INDEX task_list ON task(next_up, created, deleted, completed_at, urgency, importance, duration, category, due, title_fold)
                    WHERE deleted = 0 AND completed_at IS NULL;
                PRAGMA user_version = 7;
                """)
        }
        // v8: `task_list` keyed by `created` first (released; kept as it
        // shipped). The Backlog scans it, Next Up goes through `task_next_up`.
        m.registerMigration("v8") { db in
            try db.execute(sql: """
                DROP INDEX task_list;
                CREATE INDEX task_list ON task(created, next_up, deleted, completed_at, urgency, importance, duration, category, due, title_fold)
                    WHERE deleted = 0 AND completed_at IS NULL;
                PRAGMA user_version = 8;
                """)
        }
        // v9: the phone bridge's memory in tables with columns, keyed by the
        // vdir's identity (`BridgeItem`, TaskStore+Bridge.swift). A memory
        // kept in `meta` as JSON moves here under `path:<its folder>`, with
        // its file, fingerprint and stamp; the bytes it saw are not known
        // (the bridge reads them again). `bridge_vdir` holds the path each
        // vdir was last bridged at.
        m.registerMigration("v9") { db in
            try db.execute(sql: """
                CREATE TABLE bridge_item (
                    vdir TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    file TEXT NOT NULL,
                    hash TEXT NOT NULL DEFAULT '',
                    gone INTEGER NOT NULL DEFAULT 0,
                    stamp_device INTEGER,
                    stamp_inode INTEGER,
                    stamp_size INTEGER,
                    stamp_modified INTEGER,
                    stamp_changed INTEGER,
                    base BLOB,
                    checked INTEGER,
                    PRIMARY KEY (vdir, uid)
                ) WITHOUT ROWID;
                CREATE TABLE bridge_vdir (vdir TEXT PRIMARY KEY NOT NULL, path TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO bridge_vdir (vdir, path) SELECT 'path:' || value, value FROM meta WHERE key = 'sync.vdir.folder';
                CREATE TABLE bridge_written (
                    vdir TEXT NOT NULL,
                    uid TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    content BLOB NOT NULL,
                    PRIMARY KEY (vdir, uid, seq)
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO bridge_item
                    (vdir, uid, file, hash, gone, stamp_device, stamp_inode, stamp_size, stamp_modified, stamp_changed)
                SELECT 'path:' || folder.value, substr(item.key, 16), json_extract(item.value, '$.file'),
                       coalesce(json_extract(item.value, '$.hash'), ''), coalesce(json_extract(item.value, '$.gone'), 0),
                       json_extract(item.value, '$.stamp.device'), json_extract(item.value, '$.stamp.inode'),
                       json_extract(item.value, '$.stamp.size'), json_extract(item.value, '$.stamp.modified'),
                       json_extract(item.value, '$.stamp.changed')
                FROM meta AS item JOIN meta AS folder ON folder.key = 'sync.vdir.folder'
                WHERE item.key >= 'sync.vdir.item.' AND item.key < 'sync.vdir.item/'
                  AND json_valid(item.value) AND json_type(item.value, '$.file') = 'text';
                DELETE FROM meta WHERE key >= 'sync.vdir.' AND key < 'sync.vdir/';
                PRAGMA user_version = 9;
                """)
        }
        // v10, data only: a row an earlier build made for a change that came
        // before its task's creation (created 0, no version for `created`) is
        // marked as waiting for its creation (`TaskRow.unbornCreated`), so it
        // is no longer shown, exported or written from.
        m.registerMigration("v10") { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, versions FROM task WHERE created = 0")
            for row in rows where VersionsColumn.decode(row["versions"] as String? ?? "")[.created] == nil {
                try db.execute(sql: "UPDATE task SET created = ? WHERE id = ?", arguments: [TaskRow.unbornCreated, row["id"] as String])
            }
            try db.execute(sql: "PRAGMA user_version = 10")
        }
        // v11, data only: ``TextMatch/fold(_:)`` ignores accents too, so
        // `title_fold` is folded again where that changes it (a title with
        // an accented letter); every other row is left as it is.
        m.registerMigration("v11") { db in
            ListSQL.registerFold(db)
            try db.execute(sql: """
                UPDATE task SET title_fold = nextup_fold(title) WHERE title_fold <> nextup_fold(title);
                PRAGMA user_version = 11;
                """)
        }
        // v12: the fields of recurring tasks and defer dates (issue 35) get
        // columns: `recur` (the series' rule, canonical RRULE text),
        // `occurrence` (`<series id>#<n>`) and `defer` (`YYYY-MM-DD`), and
        // `defer` joins the lists' covering index (a deferred task is in
        // neither list). A value an earlier build held as an opaque register
        // of that name (in `extra`, its version already in `versions`) moves
        // into its column when the field accepts it, and leaves `extra`
        // (a value the field does not accept cannot stay under a known
        // field's name: it is dropped).
        m.registerMigration("v12") { db in
            try db.execute(sql: """
                ALTER TABLE task ADD COLUMN recur TEXT;
                ALTER TABLE task ADD COLUMN occurrence TEXT;
                ALTER TABLE task ADD COLUMN "defer" TEXT;
                DROP INDEX task_list;
                CREATE INDEX task_list ON task(created, next_up, deleted, completed_at, urgency, importance, duration, category, due, title_fold, "defer")
                    WHERE deleted = 0 AND completed_at IS NULL;
                """)
            let moved: [TaskField] = [.recur, .occurrence, .deferDate]
            let paths = moved.map { "'$.\($0.rawValue)'" }
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, extra FROM task WHERE json_valid(extra) AND (\(paths.map { "json_type(extra, \($0)) IS NOT NULL" }.joined(separator: " OR ")))
                """)
            let update = try db.makeStatement(sql: """
                UPDATE task SET recur = ?, occurrence = ?, "defer" = ?,
                    extra = nullif(json_remove(extra, \(paths.joined(separator: ", "))), '{}') WHERE id = ?
                """)
            for row in rows {
                let object = (try? JSONDecoder().decode([String: FieldValue].self, from: Data((row["extra"] as String).utf8))) ?? [:]
                let values = moved.map { field -> String? in
                    guard let value = object[field.rawValue], field.accepts(value) else { return nil }
                    return value.stringValue
                }
                try update.execute(arguments: [values[0], values[1], values[2], row["id"] as String])
            }
            try db.execute(sql: "PRAGMA user_version = 12")
        }
        // v13: the names in use read by an index instead of every task
        // (TaskStore+Names.swift): `task_category` holds the categories of
        // the tasks not deleted, `task_extra` the tasks that carry a tag or
        // another register outside the known fields.
        m.registerMigration("v13") { db in
            try db.execute(sql: """
                CREATE INDEX task_category ON task(category, created) WHERE deleted = 0 AND category IS NOT NULL;
                CREATE INDEX task_extra ON task(created) WHERE deleted = 0 AND extra IS NOT NULL;
                PRAGMA user_version = 13;
                """)
        }
        // v14: the history (``HistoryTable``): the values a task's fields
        // held before, and the notes of the values they hold, filled at every
        // local write and every merge; never the source of a value. Replica
        // ids once each in `machine`.
        m.registerMigration("v14") { db in
            try db.execute(sql: """
                CREATE TABLE machine (id INTEGER PRIMARY KEY, replica TEXT NOT NULL UNIQUE);
                CREATE TABLE history (
                    task_id TEXT NOT NULL,
                    field TEXT NOT NULL,
                    stamp INTEGER NOT NULL,
                    machine INTEGER NOT NULL,
                    value TEXT,
                    origin TEXT,
                    seen_stamp INTEGER,
                    seen_machine INTEGER,
                    received INTEGER,
                    PRIMARY KEY (task_id, field, stamp, machine)
                ) WITHOUT ROWID;
                CREATE INDEX history_arrived ON history(received) WHERE received IS NOT NULL;
                PRAGMA user_version = 14;
                """)
        }
        // v15: `written`, the number of the transaction that last wrote the
        // row (every local write, merge and import: one greater than any the
        // table held when it began; 0 for rows written before v15), and its
        // index: what the TUI reads to bring its lists up to date with only
        // the rows written since its last read (TaskStore+TUI.swift).
        m.registerMigration("v15") { db in
            try db.execute(sql: """
                ALTER TABLE task ADD COLUMN written INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX task_written ON task(written);
                PRAGMA user_version = 15;
                """)
        }
        return m
    }
}

import NextUpCore
