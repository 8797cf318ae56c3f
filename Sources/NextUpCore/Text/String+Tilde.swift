extension String {
    /// This path with a leading `~` (alone, or before `/`) replaced by
    /// `home`; any other path unchanged. Pure: the caller says where home is.
    public func expandingTilde(home: String) -> String {
        guard self == "~" || hasPrefix("~/") else { return self }
        return home + dropFirst()
    }
}
