/// The version `nextup --version` prints. Bumped by hand at each release; the
/// store's schema version and the log format's version are separate numbers
/// (`StoreSchema.currentVersion`, `LogFormat.version`).
public enum NextUpVersion {
    public static let string = "0.5.0"
}
