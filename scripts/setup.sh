#!/usr/bin/env bash
# Installs what Winnow needs on a fresh machine (Node 20 is assumed): redis-server if missing, the pinned pnpm, the
# workspace's packages from the frozen lockfile, and the build.
set -euo pipefail
cd "$(dirname "$0")/.."
PNPM_VERSION=10.34.8
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version)" != "$PNPM_VERSION" ]; then
  npm install --global --no-fund --no-audit "pnpm@$PNPM_VERSION" >/dev/null
fi
bash scripts/system-packages.sh run
pnpm install --frozen-lockfile --reporter=append-only >/dev/null
pnpm --silent build >/dev/null
