/**
 * The coordinator {@link io.github.waitingroom.coordinator.Transport} over Redis, for a room that
 * runs on many JVMs in one or many data centers: {@link io.github.waitingroom.redis.RedisTransport}.
 *
 * <p>Each sync is one Lua script call: it stores the node's report and its data center's sum,
 * forgets values whose retention has passed (by the server's clock) and answers with every live
 * value of the scopes it wrote. Every key of a room carries the room id as a hash tag, so the
 * script runs on Redis Cluster as well as on a standalone or Sentinel-managed server.
 */
@NullMarked
package io.github.waitingroom.redis;

import org.jspecify.annotations.NullMarked;
