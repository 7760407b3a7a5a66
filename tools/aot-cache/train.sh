#!/usr/bin/env bash
# Builds an AOT cache for the gateway (JDK 25 or later: loaded classes and method profiles), or on an older JDK a
# dynamic CDS archive (JDK 17-24: loaded classes only), from a training run under load, in the extracted layout both
# need. Run from the repository root after `mvn -DskipTests package`:
#   JAVA_HOME=/path/to/jdk tools/aot-cache/train.sh [gateway arguments, e.g. --spring.datasource.url=...]
# then start the gateway with:  cd target/aot && $JAVA_HOME/bin/java -XX:AOTCache=mykit-delay.aot -jar mykit-delay.jar ...
# (JDK 17-24:                   cd target/aot && $JAVA_HOME/bin/java -XX:SharedArchiveFile=mykit-delay.jsa -jar ...)
set -euo pipefail

java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
jar="$(pwd)/mykit-delay-core/target/mykit-delay.jar"
out="${AOT_DIR:-target/aot}"
port="${TRAIN_PORT:-18089}"
rounds="${TRAIN_ROUNDS:-5000}"
tools="$(cd "$(dirname "$0")" && pwd)"

[ -f "$jar" ] || { echo "no $jar: run 'mvn -B -q -DskipTests package' first" >&2; exit 1; }
if [ "$("$java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -c AOTCacheOutput || true)" -ge 1 ]; then
    cache=mykit-delay.aot; record="-XX:AOTCacheOutput=$cache"; use="-XX:AOTCache=$cache"
else
    cache=mykit-delay.jsa; record="-XX:ArchiveClassesAtExit=$cache"; use="-XX:SharedArchiveFile=$cache"
fi

rm -rf "$out"
"$java" -Djarmode=tools -jar "$jar" extract --destination "$out"
cd "$out"
# the cache is written when the JVM exits; a graceful stop (SIGTERM) after the load is that exit
"$java" "$record" -XX:MaxGCPauseMillis=10 -jar mykit-delay.jar --server.port="$port" "$@" \
    > training.log 2>&1 &
gateway=$!
trap 'kill "$gateway" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
    curl -fs "http://127.0.0.1:$port/actuator/health/readiness" > /dev/null && break
    kill -0 "$gateway" 2>/dev/null || { echo "the gateway stopped; see $out/training.log" >&2; exit 1; }
    sleep 0.2
done
"$java" "$tools/Train.java" "http://127.0.0.1:$port" "$rounds"
kill -TERM "$gateway"
wait "$gateway" || true
trap - EXIT
[ -s "$cache" ] || { echo "no cache written; see $out/training.log" >&2; exit 1; }
echo "cache: $out/$cache ($(du -h "$cache" | cut -f1)); start the gateway from $out with $use"
