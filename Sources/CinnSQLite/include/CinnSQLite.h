// The few SQLite C functions Cinn calls itself, from the SQLite that SQLiteNIO builds in.
//
// SQLiteNIO vendors SQLite with every symbol prefixed `sqlite_nio_` and offers no prepared statement that
// outlives one query: each query is prepared, run and finalised. Re-preparing a multi-row INSERT was about
// a third of a large import's write time (BENCHMARKS.md, "Workouts and strength"). These declarations let CinnStore prepare
// its bulk INSERTs once and step them on the connection SQLiteNIO opened: the same library, the same
// connection, inside the transaction CinnStore holds on it. CinnStore's SQLiteBulkInsert uses them, and
// SQLiteStatements, which keeps the SELECTs a connection runs prepared and steps them where they are asked for.
#ifndef CINN_SQLITE_H
#define CINN_SQLITE_H

typedef struct sqlite3 cinn_sqlite3;
typedef struct sqlite3_stmt cinn_sqlite3_stmt;

#define CINN_SQLITE_OK 0
#define CINN_SQLITE_DONE 101

int sqlite_nio_sqlite3_bind_int64(cinn_sqlite3_stmt *statement, int index, long long value);
int sqlite_nio_sqlite3_bind_double(cinn_sqlite3_stmt *statement, int index, double value);
int sqlite_nio_sqlite3_bind_null(cinn_sqlite3_stmt *statement, int index);
int sqlite_nio_sqlite3_step(cinn_sqlite3_stmt *statement);
int sqlite_nio_sqlite3_reset(cinn_sqlite3_stmt *statement);
int sqlite_nio_sqlite3_finalize(cinn_sqlite3_stmt *statement);
const char *sqlite_nio_sqlite3_errmsg(cinn_sqlite3 *connection);
int sqlite_nio_sqlite3_changes(cinn_sqlite3 *connection);
long long sqlite_nio_sqlite3_last_insert_rowid(cinn_sqlite3 *connection);

#define CINN_SQLITE_ROW 100
#define CINN_SQLITE_INTEGER 1
#define CINN_SQLITE_FLOAT 2
#define CINN_SQLITE_TEXT 3
#define CINN_SQLITE_BLOB 4
#define CINN_SQLITE_NULL 5

int sqlite_nio_sqlite3_clear_bindings(cinn_sqlite3_stmt *statement);
int sqlite_nio_sqlite3_stmt_readonly(cinn_sqlite3_stmt *statement);
int sqlite_nio_sqlite3_column_count(cinn_sqlite3_stmt *statement);
const char *sqlite_nio_sqlite3_column_name(cinn_sqlite3_stmt *statement, int column);
int sqlite_nio_sqlite3_column_type(cinn_sqlite3_stmt *statement, int column);
long long sqlite_nio_sqlite3_column_int64(cinn_sqlite3_stmt *statement, int column);
double sqlite_nio_sqlite3_column_double(cinn_sqlite3_stmt *statement, int column);
const unsigned char *sqlite_nio_sqlite3_column_text(cinn_sqlite3_stmt *statement, int column);
const void *sqlite_nio_sqlite3_column_blob(cinn_sqlite3_stmt *statement, int column);
int sqlite_nio_sqlite3_column_bytes(cinn_sqlite3_stmt *statement, int column);

/// Prepares `sql` to be stepped many times (SQLITE_PREPARE_PERSISTENT).
int cinn_sqlite_prepare(cinn_sqlite3 *connection, const char *sql, cinn_sqlite3_stmt **statement);

/// Turns on the query planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG): a statement keeps its plan whatever
/// values are bound, so a kept statement is not prepared again when its bound values change.
int cinn_sqlite_stable_plans(cinn_sqlite3 *connection);

/// Binds `length` bytes of UTF-8 text, copied by SQLite (SQLITE_TRANSIENT).
int cinn_sqlite_bind_text(cinn_sqlite3_stmt *statement, int index, const char *text, int length);

/// Binds `length` bytes, copied by SQLite (SQLITE_TRANSIENT); a null `bytes` is an empty blob, not NULL.
int cinn_sqlite_bind_blob(cinn_sqlite3_stmt *statement, int index, const void *bytes, int length);

#endif
