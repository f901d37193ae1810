#!/usr/bin/env bash
# Builds the launcher if needed (Maven, from Maven Central) and runs S3Proxy, an S3-compatible
# server, in the foreground on 127.0.0.1. stdout carries exactly one line,
# S3_ENDPOINT=http://127.0.0.1:<port>, once it serves; everything else goes to stderr. SIGTERM
# stops it. Arguments pass through: [--dir <folder>] (keep objects there; default: in memory)
# [--port <n>] [--identity <access key>] [--credential <secret key>].
# `run.sh --build-only` builds the launcher and exits (infra/docker/build-images.sh packs it).
set -euo pipefail
cd "$(dirname "$0")"
jar=target/s3proxy-local-0.1.0.jar
mkdir -p target
# One build at a time: test files may start servers in parallel on a fresh checkout.
(
  flock 9
  if [ ! -f "$jar" ] || [ ! -d target/lib ] || [ -n "$(find src pom.xml -newer "$jar" -print -quit)" ]; then
    mvn -q -B -Dstyle.color=never package -DskipTests >&2
  fi
) 9>target/.build.lock
[ "${1:-}" = --build-only ] && exit 0
exec java -Xms32m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$jar:target/lib/*" dev.winnow.s3proxy.LocalS3Proxy "$@"
