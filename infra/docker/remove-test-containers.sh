#!/usr/bin/env bash
# Removes what tests left running when they could not clean up themselves (a killed run): the
# containers testcontainers started (label winnow.tests) and the compose test's stacks (projects
# named winnow-compose-*), with their volumes. Usage: remove-test-containers.sh
set -euo pipefail
docker ps -aq --filter label=winnow.tests | xargs -r docker rm --force --volumes >/dev/null
for project in $(docker ps -a --format '{{ .Label "com.docker.compose.project" }}' | grep '^winnow-compose-' | sort -u); do
  docker ps -aq --filter "label=com.docker.compose.project=$project" | xargs -r docker rm --force --volumes >/dev/null
  docker volume ls -q --filter "label=com.docker.compose.project=$project" | xargs -r docker volume rm >/dev/null
done
