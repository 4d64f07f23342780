/// A note a person attaches to a record (a weigh-in, a food entry, a glucose reading…): trimmed, empty means
/// none, and at most `maximumLength` characters wherever it comes from (REST, forms, imports, sync).
public enum Note {
    public static let maximumLength = 500

    public static func validated(_ text: String?, field: String = "note", maximumLength: Int = maximumLength) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= maximumLength else {
            throw CinnError.invalid(field, "\(field) has \(text.count) characters; at most \(maximumLength)")
        }
        return text
    }
}
