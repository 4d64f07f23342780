import CinnCore
import Foundation
import SQLKit

extension Migration {
    /// Migration 20: health data that arrives in deliveries (Health Auto Export) rather than in whole exports, kept
    /// sample by sample so that deliveries whose windows overlap add each sample once; the day summaries in
    /// `health_days` are worked out from them.
    static let v20 = Migration(
        version: 20, name: "Health samples from deliveries",
        dialectNeutral: [
            // A sample is the same sample when its type, category, unit, start, end and source are: a delivery that
            // sends it again with another value (a bucket that grew) replaces the value and owns the sample.
            """
            CREATE TABLE health_samples (
                user_id $INT NOT NULL REFERENCES users(row_id),
                type TEXT NOT NULL,
                category TEXT NOT NULL,
                unit TEXT NOT NULL,
                start_ms $INT NOT NULL,
                end_ms $INT NOT NULL,
                source TEXT NOT NULL,
                local_day $INT NOT NULL,
                value $REAL NOT NULL,
                minimum $REAL NOT NULL,
                maximum $REAL NOT NULL CHECK (maximum >= minimum),
                import_id $INT NOT NULL REFERENCES imports(row_id),
                PRIMARY KEY (user_id, type, category, unit, start_ms, end_ms, source)
            ) $WITHOUT_ROWID
            """,
            "CREATE INDEX health_samples_day ON health_samples (user_id, local_day)",
            "CREATE INDEX health_samples_import ON health_samples (import_id)",
        ]
    )
}
