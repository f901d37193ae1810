#!/usr/bin/env bash
# Installs what Winnow needs on a fresh machine (Node 20 is assumed), only where missing: the pinned
# pnpm, the Debian packages (system-packages.sh: redis-server; with `test`, also Chromium, Java and
# Maven for the local Elasticsearch and S3Proxy, and a PostgreSQL server on 127.0.0.1:5432), the workspace's
# packages from the frozen lockfile, and the build. Usage: setup.sh [run|test]   (default: run)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}
PNPM_VERSION=10.34.8
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  npm install --global --no-fund --no-audit "pnpm@$PNPM_VERSION" >/dev/null
fi
bash scripts/system-packages.sh "$mode"
pnpm install --frozen-lockfile --reporter=append-only >/dev/null
pnpm --silent build >/dev/null
