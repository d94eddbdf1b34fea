# Sourced by the SQL benchmark scripts: a Debian PostgreSQL (with pgbench) in a temporary
# directory on 127.0.0.1:$PGPORT, stopped on exit. Installs the packages when missing.
set -euo pipefail
PGPORT=${PGPORT:-55432}
if ! command -v pgbench >/dev/null 2>&1 && [ ! -x /usr/lib/postgresql/15/bin/pgbench ]; then
  echo "installing Debian's PostgreSQL (for pgbench and a server)..." >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PGDATA=$(mktemp -d /tmp/fusillade-bench-pg.XXXXXX)
chown postgres "$PGDATA"
runuser -u postgres -- "$PGBIN/initdb" -D "$PGDATA" -A trust -U postgres >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/log" -w \
  -o "-p $PGPORT -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=100 -k /tmp" start >/dev/null
stop_postgres() {
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PGDATA" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$PGDATA"
}
trap stop_postgres EXIT
PGURL="jdbc:postgresql://127.0.0.1:$PGPORT/postgres?user=postgres"
export PGBIN PGPORT PGURL
