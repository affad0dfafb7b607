package io.github.waitingroom;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.coordinator.ReportSeal;
import io.github.waitingroom.coordinator.Transport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of one {@link WaitingRoom} on one node, wired from a builder's {@link RoomOptions}
 * (the ticket codec, the node's state, the live settings, the sync and the admission rule), and
 * the request path over them: which of a request's tickets is decided, and the check of a
 * session to end. The room is the public face of these parts. Logs under {@link WaitingRoom}'s
 * name.
 */
final class RoomParts {
  private static final Logger log = LoggerFactory.getLogger(WaitingRoom.class);

  final RoomConfig config;
  final KeysetHandle keys;
  final RoomMetrics metrics = new RoomMetrics();
  final TicketCodec codec;
  final NodeState state;
  final LiveSettings live;
  final Synchronizer sync;
  /** The admission rule: what each request gets. */
  final Decider decider;
  final String dataCenter;
  final String nodeId;

  RoomParts(RoomOptions b, Transport transport) {
    this.config = b.config;
    this.keys = b.keys;
    this.codec = new TicketCodec(config.roomId(), b.keys, TicketCodec.SEAL_WARNING_INTERVAL, metrics);
    this.dataCenter = b.dataCenter;
    this.nodeId = b.nodeId;
    this.live = new LiveSettings(config);
    // The configuration in force: with an adaptive limit, its start kept within its bounds.
    this.state = new NodeState(live.current().config());
    TicketRate rate = new TicketRate(b.maxRequestsPerTicket, b.random.nextLong());
    this.sync = new Synchronizer(config, state, live, transport, new ReportSeal(b.keys, config.roomId()), b.clock,
        b.dataCenter, b.nodeId,
        b.syncInterval, b.storeBudget, b.failurePolicy, b.backgroundSync, b.random, metrics, b.allocator, b.coordinators);
    this.decider = new Decider(config, codec, state, live, rate, sync, metrics, b.random);
    log.info("room '{}' open on node '{}' of data center '{}': {} active users, {} new users a minute, sessions of {} s;"
            + " store {}, {}, epochs of {} ms",
        config.roomId(), b.nodeId, b.dataCenter, config.totalActiveUsers(), config.newUsersPerMinute(),
        config.sessionSeconds(), transport.getClass().getSimpleName(), b.failurePolicy, b.syncInterval.toMillis());
  }

  /** See {@link WaitingRoom#decide(String)}. */
  Decision decide(@Nullable String ticket) {
    long now = sync.nowSecond();
    return counted(decider.decide(codec.openState(ticket, now), now, Decider.Newcomer.QUEUE, live.current(now)));
  }

  /** See {@link WaitingRoom#decide(String, String, boolean)}: the session first, then the place. */
  Decision decide(@Nullable String session, @Nullable String place, Decider.Newcomer newcomer) {
    long now = sync.nowSecond();
    LiveSettings.Current in = live.current(now);
    TicketState s = codec.openState(session, now);
    if (s != null && decider.activeAt(s, now, in)) {
      return counted(decider.decide(s, now, Decider.Newcomer.QUEUE, in));
    }
    TicketState p = codec.openState(place, now);
    return counted(decider.decide(p != null ? p : s, now, newcomer, in));
  }

  private Decision counted(Decision d) {
    metrics.recordDecision(d);
    return d;
  }

  /** See {@link WaitingRoom#revoke}. */
  boolean revoke(@Nullable String session) {
    long now = sync.nowSecond();
    TicketState t = codec.openState(session, now);
    if (t == null || !decider.activeAt(t, now, live.current(now)) || !state.revoke(t, now)) {
      return false;
    }
    metrics.recordRevoke();
    return true;
  }
}
