# Sourced by test.sh (bash): starts a throw-away PostgreSQL server for the
# tests and stops it when the script exits.
#
# - installs Debian's postgresql when no server binaries are found (as root,
#   with apt-get);
# - initdb into a temporary folder, as the `postgres` user when run as root
#   (PostgreSQL refuses to run as root; the user is created if missing);
# - listens on 127.0.0.1 on a free port and on a socket in that folder;
# - exports BRETT_TEST_POSTGRES (the URL of an empty database `brett_test`
#   whose superuser may create further databases: each test makes its own)
#   and BRETT_REQUIRE_POSTGRES=1 (a PostgreSQL test that finds no server
#   fails instead of being skipped).
#
# Standalone: `source tests/pg/start.sh` in a shell, then run cargo test.

brett_pg_bindir() {
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
      echo "$d"
      return 0
    fi
  done
  return 1
}

brett_pg_free_port() {
  local p
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 30000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

brett_pg_stop() {
  if [ -n "${BRETT_PG_DIR:-}" ] && [ -d "$BRETT_PG_DIR" ]; then
    if [ -f "$BRETT_PG_DIR/data/postmaster.pid" ]; then
      brett_pg_as "$BRETT_PG_BIN/pg_ctl" -D "$BRETT_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$BRETT_PG_DIR"
  fi
}

# Run a command as the cluster's owner.
brett_pg_as() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u "$BRETT_PG_USER" -- "$@"
  else
    "$@"
  fi
}

brett_pg_start() {
  if ! BRETT_PG_BIN=$(brett_pg_bindir); then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
      echo "== installing PostgreSQL (apt-get install postgresql)"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    BRETT_PG_BIN=$(brett_pg_bindir) || {
      echo "tests/pg/start.sh: the tests need PostgreSQL: apt-get install -y postgresql" >&2
      return 1
    }
  fi
  BRETT_PG_USER=$(id -un)
  if [ "$(id -u)" = "0" ]; then
    BRETT_PG_USER=postgres
    id -u "$BRETT_PG_USER" >/dev/null 2>&1 \
      || useradd --system --no-create-home --shell /usr/sbin/nologin "$BRETT_PG_USER"
  fi
  # As root under /tmp: the postgres user must reach the folder (a TMPDIR
  # under /root would not do).
  local tmp="${TMPDIR:-/tmp}"
  [ "$(id -u)" = "0" ] && tmp=/tmp
  BRETT_PG_DIR=$(mktemp -d "$tmp/brett-pg.XXXXXX")
  [ "$(id -u)" = "0" ] && chown "$BRETT_PG_USER" "$BRETT_PG_DIR"
  chmod 700 "$BRETT_PG_DIR"
  trap brett_pg_stop EXIT
  local port
  port=$(brett_pg_free_port) || { echo "tests/pg/start.sh: no free port" >&2; return 1; }
  brett_pg_as "$BRETT_PG_BIN/initdb" -D "$BRETT_PG_DIR/data" -U postgres --auth=trust \
    --encoding=UTF8 --no-locale --no-sync >"$BRETT_PG_DIR/initdb.log" 2>&1 || {
    cat "$BRETT_PG_DIR/initdb.log" >&2
    return 1
  }
  # fsync off: a throw-away cluster; enough connections for the tests that
  # run at once (each server instance pools up to 9).
  brett_pg_as "$BRETT_PG_BIN/pg_ctl" -D "$BRETT_PG_DIR/data" -l "$BRETT_PG_DIR/server.log" -w \
    -o "-p $port -k $BRETT_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB" \
    start >/dev/null || {
    cat "$BRETT_PG_DIR/server.log" >&2
    return 1
  }
  brett_pg_as "$BRETT_PG_BIN/psql" -h "$BRETT_PG_DIR" -p "$port" -U postgres -d postgres -q \
    -c "CREATE DATABASE brett_test" >/dev/null
  export BRETT_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/brett_test"
  export BRETT_REQUIRE_POSTGRES=1
  echo "== PostgreSQL $("$BRETT_PG_BIN/postgres" --version | awk '{print $3}') for the tests: $BRETT_TEST_POSTGRES (cluster in $BRETT_PG_DIR)"
}

brett_pg_start
