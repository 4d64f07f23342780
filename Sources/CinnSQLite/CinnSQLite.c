#include "CinnSQLite.h"

int sqlite_nio_sqlite3_prepare_v3(cinn_sqlite3 *connection, const char *sql, int length, unsigned int flags,
                                  cinn_sqlite3_stmt **statement, const char **tail);
int sqlite_nio_sqlite3_bind_text(cinn_sqlite3_stmt *statement, int index, const char *text, int length,
                                 void (*destructor)(void *));
int sqlite_nio_sqlite3_bind_blob(cinn_sqlite3_stmt *statement, int index, const void *bytes, int length,
                                 void (*destructor)(void *));

int cinn_sqlite_prepare(cinn_sqlite3 *connection, const char *sql, cinn_sqlite3_stmt **statement) {
    return sqlite_nio_sqlite3_prepare_v3(connection, sql, -1, 0x01 /* SQLITE_PREPARE_PERSISTENT */, statement, 0);
}

int cinn_sqlite_bind_text(cinn_sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite_nio_sqlite3_bind_text(statement, index, text, length, (void (*)(void *))-1 /* SQLITE_TRANSIENT */);
}

int cinn_sqlite_bind_blob(cinn_sqlite3_stmt *statement, int index, const void *bytes, int length) {
    static const char empty = 0;  // SQLite binds NULL for a null pointer; no bytes is an empty blob
    return sqlite_nio_sqlite3_bind_blob(statement, index, bytes ? bytes : &empty, length, (void (*)(void *))-1 /* SQLITE_TRANSIENT */);
}

int sqlite_nio_sqlite3_db_config(cinn_sqlite3 *connection, int option, ...);

int cinn_sqlite_stable_plans(cinn_sqlite3 *connection) {
    return sqlite_nio_sqlite3_db_config(connection, 1007 /* SQLITE_DBCONFIG_ENABLE_QPSG */, 1, (int *)0);
}
