/// One field of a CSV file Cinn writes (RFC 4180), safe to open in a spreadsheet.
public enum CSVField {
    /// `text` quoted when it holds a comma, a quote or a line break; and a text that a spreadsheet would run
    /// as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return and is not a number) gets a
    /// leading `'`, so `=HYPERLINK(…)` typed as a meal's name stays text (CSV injection). Numbers such as `-12.5`
    /// are left as they are.
    public static func escaped(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), !isNumber(text) {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func isNumber(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ".+-eE".unicodeScalars.contains($0) } && Double(text) != nil
    }
}
