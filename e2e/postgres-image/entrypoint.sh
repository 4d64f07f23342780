#!/bin/sh
# First start: a cluster whose superuser is POSTGRES_USER with POSTGRES_PASSWORD, and the database POSTGRES_DB.
# As in the postgres image, connections over the network need the password and those inside the container do not.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    password_file=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$password_file"
    initdb -D "$PGDATA" -U "$POSTGRES_USER" --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --no-sync >/dev/null
    rm -f "$password_file"
    printf "listen_addresses = '*'\n" >> "$PGDATA/postgresql.conf"
    printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    psql -h /var/run/postgresql -U "$POSTGRES_USER" -d postgres -v ON_ERROR_STOP=1 \
        -c "create database \"$POSTGRES_DB\"" >/dev/null
    pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA"
