/// A note a person attaches to a record (a weigh-in, a food entry, a glucose reading…): trimmed, empty means
/// none, at most `maximumLength` characters and no control characters but line breaks and tabs
/// (`ValidValues.plainText`), wherever it comes from (REST, forms, imports, sync).
public enum Note {
    public static let maximumLength = 500

    public static func validated(_ text: String?, field: String = "note", maximumLength: Int = maximumLength) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= maximumLength else {
            throw CinnError.invalid(field, "\(field) has \(text.count) characters; at most \(maximumLength)")
        }
        try ValidValues.plainText(text, field: field, allowingLineBreaks: true)
        return text
    }
}
