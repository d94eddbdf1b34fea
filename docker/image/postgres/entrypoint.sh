#!/bin/bash
# The entrypoint of fusillade/postgres (docker/image/build-local.sh): Debian's PostgreSQL 15 with the
# environment contract of the official postgres image, so that Testcontainers' PostgreSQLContainer,
# ContainerPostgres and docker/compose/postgres.yml use it as they use that image:
#
# - POSTGRES_USER (default postgres), POSTGRES_PASSWORD, POSTGRES_DB (default: the user),
#   POSTGRES_HOST_AUTH_METHOD (default scram-sha-256; trust lets in without a password) and
#   POSTGRES_INITDB_ARGS, read when the data directory PGDATA is empty;
# - /docker-entrypoint-initdb.d/*.sh (run, or sourced when not executable) and *.sql, once, on a
#   server that listens on no TCP port;
# - "database system is ready to accept connections" logged twice on the first start (that server,
#   then the real one), once on later starts;
# - a command starting with "postgres" or "-" runs the server as the postgres user; any other
#   command runs as given (ContainerPostgres's replicas run pg_basebackup first).
#
# Written for this project from that contract, not copied from the official image's script.
set -euo pipefail

pgdata=${PGDATA:?PGDATA is set by the image}

if [ "${1:0:1}" = "-" ]; then
  set -- postgres "$@"
fi
if [ "$1" != "postgres" ]; then
  exec "$@"
fi

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$pgdata" /var/run/postgresql
  chown postgres:postgres "$pgdata" /var/run/postgresql
  chmod 700 "$pgdata"
  exec gosu postgres "$0" "$@"
fi

if [ ! -s "$pgdata/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  database=${POSTGRES_DB:-$user}
  auth=${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$auth" != trust ]; then
    echo "fusillade/postgres: POSTGRES_PASSWORD is not set: set it, or POSTGRES_HOST_AUTH_METHOD=trust" \
      "to let every connection in without a password" >&2
    exit 1
  fi
  # The password goes through a file descriptor, never a command line.
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of words
  initdb --username="$user" --auth-local=trust --auth-host="$auth" \
    --pwfile=<(printf '%s\n' "${POSTGRES_PASSWORD:-}") ${POSTGRES_INITDB_ARGS:-} -D "$pgdata" >/dev/null
  printf 'host all all all %s\n' "$auth" >>"$pgdata/pg_hba.conf"
  printf "listen_addresses = '*'\n" >>"$pgdata/postgresql.conf"

  # Its log shows: the first of the two "ready to accept connections" a client waits for.
  pg_ctl -D "$pgdata" -o "-c listen_addresses=''" -w start
  run_sql() { psql -v ON_ERROR_STOP=1 -X -q --username "$user" --no-password "$@"; }
  if [ "$database" != postgres ]; then
    run_sql --dbname postgres --set db="$database" <<<'CREATE DATABASE :"db";'
  fi
  for script in /docker-entrypoint-initdb.d/*; do
    case "$script" in
      *.sh)
        if [ -x "$script" ]; then "$script"; else . "$script"; fi
        ;;
      *.sql) run_sql --dbname "$database" -f "$script" ;;
      *) ;;
    esac
  done
  pg_ctl -D "$pgdata" -m fast -w stop >/dev/null
fi

exec "$@"
