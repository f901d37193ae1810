#!/bin/sh
# Creates the cluster on first start (the official image's variables), then runs postgres as the
# postgres user. Arguments starting with '-' are postgres options.
set -eu
case "${1:-}" in -*) set -- postgres "$@" ;; esac
if [ "${1:-}" != postgres ]; then exec "$@"; fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set, as with the official image}"
  user=${POSTGRES_USER:-postgres}
  password_file=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$password_file"
  initdb -D "$PGDATA" -U "$user" --pwfile="$password_file" -E UTF8 --locale=C.UTF-8 \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$password_file"
  # As the official image: password logins from any address the server listens on.
  echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
  database=${POSTGRES_DB:-$user}
  if [ "$database" != postgres ]; then
    echo "CREATE DATABASE \"$database\"" | postgres --single -D "$PGDATA" -j postgres >/dev/null
  fi
  echo "initialized $PGDATA (user $user, database $database)"
fi
exec "$@"
