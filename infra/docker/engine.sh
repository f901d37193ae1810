#!/usr/bin/env bash
# Installs Debian's Docker engine, mmdebstrap and Compose v2 where missing and starts the daemon
# where none answers, as machines without a normal Docker need it: no bridge, no iptables rules,
# no IP forwarding (every container then runs with host networking and listens on 127.0.0.1). The
# daemon's log goes to /var/log/winnow-dockerd.log. Needs root. Usage: engine.sh
set -euo pipefail

if ! command -v dockerd >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1; then
  apt-get update >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker.io mmdebstrap >/dev/null
fi

# Compose v2 as the `docker compose` plugin. Bookworm has only v1 (1.29), which cannot take the
# API's published port away in docker-compose.host.yml (`!reset`); Debian trixie's package holds
# the v2 plugin, a binary that runs on bookworm. Fetched with apt from a private list of trixie.
if ! docker compose version >/dev/null 2>&1; then
  apt_dir=$(mktemp -d)
  chmod 755 "$apt_dir"
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  echo 'deb http://deb.debian.org/debian trixie main' >"$apt_dir/sources.list"
  trixie=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
  apt-get "${trixie[@]}" update >/dev/null
  (cd "$apt_dir" && apt-get "${trixie[@]}" download docker-compose >/dev/null 2>&1)
  dpkg-deb -x "$apt_dir"/docker-compose_*.deb "$apt_dir/unpacked"
  install -D -m 755 "$apt_dir/unpacked/usr/libexec/docker/cli-plugins/docker-compose" /usr/libexec/docker/cli-plugins/docker-compose
  rm -rf "$apt_dir"
fi

if ! docker info >/dev/null 2>&1; then
  # setsid: the daemon outlives the shell that started it, like a service would.
  setsid dockerd --bridge=none --iptables=false --ip6tables=false --ip-forward=false --ip-masq=false \
    --storage-driver=overlay2 >>/var/log/winnow-dockerd.log 2>&1 < /dev/null &
  for _ in $(seq 1 100); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
  docker info >/dev/null 2>&1 || { tail -20 /var/log/winnow-dockerd.log >&2; echo "dockerd did not start" >&2; exit 1; }
fi
