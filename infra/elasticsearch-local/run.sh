#!/usr/bin/env bash
# Builds the launcher if needed (Maven, from Maven Central) and runs one Elasticsearch node in the
# foreground: a single-node cluster, or a member of a cluster. stdout carries exactly one line,
# ELASTICSEARCH_URL=http://127.0.0.1:<port>, once the cluster is healthy; everything else goes to
# stderr. SIGTERM stops it cleanly. Arguments pass through: [--home <dir>] [--port <n>], and to join
# a cluster --node-name <name> --transport-port <n> --seed-hosts 127.0.0.1:<port>,...
# --initial-master-nodes <name>,... (startLocalElasticsearchCluster in packages/search/src/testing
# starts three such nodes). ES_JAVA_HEAP overrides the 1 GB heap.
# `run.sh --build-only` builds the launcher and exits (infra/docker/build-images.sh packs it).
set -euo pipefail
cd "$(dirname "$0")"
jar=target/elasticsearch-local-0.1.0.jar
mkdir -p target
# One build at a time: test files may start nodes in parallel on a fresh checkout.
(
  flock 9
  if [ ! -f "$jar" ] || [ ! -d target/lib ] || [ -n "$(find src pom.xml -newer "$jar" -print -quit)" ]; then
    mvn -q -B -Dstyle.color=never package -DskipTests >&2
  fi
) 9>target/.build.lock
[ "${1:-}" = --build-only ] && exit 0
heap=${ES_JAVA_HEAP:-1g}
exec java -Xms256m "-Xmx$heap" -XX:+UseSerialGC -Dlog4j2.level=WARN -cp "$jar:target/lib/*" org.elasticsearch.node.LocalElasticsearch "$@"
