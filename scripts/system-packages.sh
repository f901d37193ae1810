#!/usr/bin/env bash
# Installs the Debian packages Winnow needs and starts the services its tests use, only where
# missing. Usage: system-packages.sh run   (redis-server: the embedded default's private Redis)
#                 system-packages.sh test  (also Chromium, Java and Maven for the local Elasticsearch
#                                           and S3Proxy, and a PostgreSQL server on 127.0.0.1:5432)
set -euo pipefail
mode=${1:-run}

apt_install() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "winnow needs the Debian package(s) $*: install them as root (apt-get install -y $*)" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1 ||
    { apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" >/dev/null; }
}

command -v redis-server >/dev/null 2>&1 || apt_install redis-server

if [ "$mode" = test ]; then
  [ -x /usr/bin/chromium ] || apt_install chromium
  command -v mvn >/dev/null 2>&1 || apt_install maven default-jdk-headless
  if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start
    for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.2; done
    # A fresh cluster asks for a password on TCP; give the tests' role one they know.
    su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null
  fi
fi
