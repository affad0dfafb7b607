#!/usr/bin/env bash
# A throwaway 3-shard Redis Cluster (no replicas) on 127.0.0.1:7101-7103, for StoreLoadBench:
#
#   benchmarks/load/redis-cluster.sh start   # then --redis=redis-cluster://127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103
#   benchmarks/load/redis-cluster.sh stop    # shuts the three servers down and deletes their directory
#
# Each server runs from /tmp/waitingroom-redis-cluster/<port> with no persistence.
set -euo pipefail
PORTS=(7101 7102 7103)
DIR=/tmp/waitingroom-redis-cluster
SERVER=${REDIS_SERVER:-/usr/bin/redis-server}

case "${1:-}" in
  start)
    for p in "${PORTS[@]}"; do
      mkdir -p "$DIR/$p"
      (cd "$DIR/$p" && "$SERVER" --port "$p" --bind 127.0.0.1 --cluster-enabled yes \
        --cluster-config-file nodes.conf --cluster-node-timeout 5000 --save '' --appendonly no \
        --daemonize yes --pidfile "$DIR/$p/redis.pid" --logfile "$DIR/$p/redis.log")
    done
    for p in "${PORTS[@]}"; do
      until redis-cli -p "$p" ping >/dev/null 2>&1; do sleep 0.1; done
    done
    redis-cli --cluster create $(printf '127.0.0.1:%s ' "${PORTS[@]}") --cluster-replicas 0 --cluster-yes >/dev/null
    until [ "$(redis-cli -p "${PORTS[0]}" cluster info | tr -d '\r' | grep cluster_state)" = "cluster_state:ok" ]; do sleep 0.2; done
    echo "cluster up: redis-cluster://$(printf '127.0.0.1:%s,' "${PORTS[@]}" | sed 's/,$//')"
    ;;
  stop)
    for p in "${PORTS[@]}"; do
      redis-cli -p "$p" shutdown nosave >/dev/null 2>&1 || true
    done
    rm -rf "$DIR"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
