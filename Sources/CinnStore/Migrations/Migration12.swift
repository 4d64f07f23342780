import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 12: Apple Health: the other quantity and category types summed up per type and local day.
    static let v12 = Migration(
        version: 12, name: "Apple Health: the other quantity and category types summed up per type and local day",
        dialectNeutral: [
            // One row per type, day and import: the newest export's row is the day's (by export date, then import);
            // undoing an import deletes its rows and brings the older export's back.
            """
            CREATE TABLE health_days (
                user_id $INT NOT NULL REFERENCES users(row_id),
                type TEXT NOT NULL,
                category TEXT NOT NULL,
                unit TEXT NOT NULL,
                local_day $INT NOT NULL,
                import_id $INT NOT NULL REFERENCES imports(row_id),
                exported_at_ms $INT NOT NULL,
                sample_count $INT NOT NULL CHECK (sample_count > 0),
                total $REAL NOT NULL,
                minimum $REAL NOT NULL,
                maximum $REAL NOT NULL CHECK (maximum >= minimum),
                PRIMARY KEY (user_id, type, category, unit, local_day, import_id)
            ) $WITHOUT_ROWID
            """,
            "CREATE INDEX health_days_import ON health_days (import_id)",
        ]
    )
}
