#!/usr/bin/env bash
# End-to-end load run: one Jetty serving the same trivial page with and without the waiting-room
# filter (and, with Redis, our filter on the Redis transport and a one-round-trip-per-request Redis
# baseline), driven by wrk with an admitted user's cookie, same settings for every variant,
# variants interleaved round by round. Then the same on two nodes (two JVMs) sharing one Redis.
#
#   benchmarks/load/run.sh [seconds-per-run] [rounds] [connections]
#
# Needs: benchmarks/target/benchmarks.jar (mvn -pl benchmarks package), wrk (apt-get install wrk),
# Redis on 127.0.0.1:6379 for the Redis variants. Writes a Markdown table to stdout and the raw wrk
# output to benchmarks/target/load/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-10}
ROUNDS=${2:-3}
CONNECTIONS=${3:-16}
THREADS=1
JAR=target/benchmarks.jar
OUT=target/load
REDIS=redis://127.0.0.1:6379
mkdir -p "$OUT"
rm -f "$OUT"/keyset.json
PIDS=()
cleanup() { for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

have_redis=false
if (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then have_redis=true; fi

start_server() { # port node
  local args=(--port "$1" --node "$2" --dc dc-1 --keyset "$OUT/keyset.json")
  $have_redis && args+=(--redis "$REDIS")
  java -Xmx512m -cp "$JAR" io.github.waitingroom.benchmarks.LoadServer "${args[@]}" >"$OUT/server-$1.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 120); do grep -q '^ready' "$OUT/server-$1.log" && return 0; sleep 0.5; done
  echo "server on port $1 did not start" >&2; cat "$OUT/server-$1.log" >&2; exit 1
}

run_wrk() { # url seconds file
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2"s --latency -s load/cookie.lua "$1" >"$3"
}

rps() { awk '/^Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1=="99%" {print $2}' "$1"; }
errors() { awk '/Non-2xx/ {print $5; f=1} END {if (!f) print 0}' "$1"; }

variants=(plain room)
$have_redis && variants+=(room-redis baseline)

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wrk -t$THREADS -c$CONNECTIONS -d${SECONDS_PER_RUN}s --latency -s load/cookie.lua, $ROUNDS rounds interleaved"
echo

start_server 18080 node-1
for v in "${variants[@]}"; do run_wrk "http://127.0.0.1:18080/$v/hello" 5 "$OUT/warmup-$v.txt"; done
echo "| round | variant | requests/s | p99 | non-2xx |"
echo "|---|---|---|---|---|"
for r in $(seq 1 "$ROUNDS"); do
  for v in "${variants[@]}"; do
    f="$OUT/one-node-$v-$r.txt"
    run_wrk "http://127.0.0.1:18080/$v/hello" "$SECONDS_PER_RUN" "$f"
    echo "| $r | $v | $(rps "$f") | $(p99 "$f") | $(errors "$f") |"
  done
done

if $have_redis; then
  echo
  echo "two nodes (two JVMs, one Redis), one wrk per node at once, same settings each:"
  start_server 18081 node-2
  for v in room-redis baseline; do run_wrk "http://127.0.0.1:18081/$v/hello" 5 "$OUT/warmup2-$v.txt"; done
  echo "| round | variant | node-1 requests/s | node-2 requests/s | total | p99 node-1 / node-2 | non-2xx |"
  echo "|---|---|---|---|---|---|---|"
  for r in $(seq 1 "$ROUNDS"); do
    for v in room-redis baseline; do
      a="$OUT/two-nodes-$v-$r-a.txt"; b="$OUT/two-nodes-$v-$r-b.txt"
      run_wrk "http://127.0.0.1:18080/$v/hello" "$SECONDS_PER_RUN" "$a" &
      w1=$!
      run_wrk "http://127.0.0.1:18081/$v/hello" "$SECONDS_PER_RUN" "$b"
      wait $w1
      total=$(echo "$(rps "$a") + $(rps "$b")" | bc)
      echo "| $r | $v | $(rps "$a") | $(rps "$b") | $total | $(p99 "$a") / $(p99 "$b") | $(( $(errors "$a") + $(errors "$b") )) |"
    done
  done
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
