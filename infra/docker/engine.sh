#!/usr/bin/env bash
# Installs Debian's Docker engine and mmdebstrap where missing and starts the daemon where none
# answers, as machines without a normal Docker need it: no bridge, no iptables rules, no IP
# forwarding (every container then runs with host networking and listens on 127.0.0.1). The
# daemon's log goes to /var/log/winnow-dockerd.log. Needs root. Usage: engine.sh
set -euo pipefail

if ! command -v dockerd >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1 || ! command -v docker-compose >/dev/null 2>&1; then
  apt-get update >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker.io mmdebstrap docker-compose >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  # setsid: the daemon outlives the shell that started it, like a service would.
  setsid dockerd --bridge=none --iptables=false --ip6tables=false --ip-forward=false --ip-masq=false \
    --storage-driver=overlay2 >>/var/log/winnow-dockerd.log 2>&1 < /dev/null &
  for _ in $(seq 1 100); do docker info >/dev/null 2>&1 && break; sleep 0.2; done
  docker info >/dev/null 2>&1 || { tail -20 /var/log/winnow-dockerd.log >&2; echo "dockerd did not start" >&2; exit 1; }
fi
