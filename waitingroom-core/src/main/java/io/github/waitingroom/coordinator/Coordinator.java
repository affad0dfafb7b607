package io.github.waitingroom.coordinator;

import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.allocation.RoomView;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's side of the two-tier coordination: one {@link Transport#exchange} per sync publishes
 * the node's report to its data center's scope and the data center's sum (as of the previous
 * round) to the global scope, and turns the answer into a {@link RoomView}. Not thread-safe: one
 * background thread of one node calls it.
 */
public final class Coordinator {
  /** The scope every data center publishes its sum to. */
  public static final String GLOBAL_SCOPE = "global";

  private static final Logger log = LoggerFactory.getLogger(Coordinator.class);

  private final RoomConfig config;
  private final Transport transport;
  private final String dataCenter;
  private final String publisher;
  private final String dcScope;
  private final Duration retention;
  private final long liveSeconds;
  private @Nullable List<Report> otherNodes;
  private int nodeIndex;
  private int nodeCount = 1;

  /**
   * A coordinator for one node.
   *
   * @param dataCenter the node's data center (region, cluster)
   * @param publisher the node's id, unique within the data center for the life of this process
   * @param liveness how long after its last report a node still counts as live for sharing
   *     budgets (a few sync intervals); its counts stay for the whole retention either way
   */
  public Coordinator(
      RoomConfig config, Transport transport, String dataCenter, String publisher, Duration liveness) {
    this.config = Objects.requireNonNull(config, "config");
    this.transport = Objects.requireNonNull(transport, "transport");
    this.dataCenter = Objects.requireNonNull(dataCenter, "dataCenter");
    this.publisher = Objects.requireNonNull(publisher, "publisher");
    this.dcScope = "dc:" + dataCenter;
    this.retention = retention(config);
    this.liveSeconds = Math.max(1, liveness.getSeconds());
  }

  /**
   * How long a report must be kept: long enough that the users a node admitted keep counting
   * until their sessions expire, even if the node dies, and that the share window stays known.
   */
  public static Duration retention(RoomConfig config) {
    long longest =
        Math.max(
            Math.max(config.sessionSeconds(), config.waitingTimeoutSeconds()),
            Math.max(RoomView.RATE_WINDOW_SECONDS, 3 * config.bucketSeconds()));
    return Duration.ofSeconds(longest + 2 * config.sliceSeconds());
  }

  /**
   * Publishes {@code mine} and returns the room as everyone reported it. The very first call makes
   * one extra round trip to learn the other nodes of its data center before it publishes the data
   * center's sum, so that a starting node never overwrites that sum with its own empty counts.
   *
   * @throws IOException if the transport fails; nothing changes then
   */
  public RoomView exchange(Report mine, long now) throws IOException {
    Transport.Publication minePublished =
        new Transport.Publication(dcScope, publisher, ReportCodec.encode(mine));
    List<Report> others = otherNodes;
    if (others == null) {
      others = othersIn(transport.exchange(config.roomId(), List.of(minePublished), retention));
    }
    Report published = dataCenterSum(others, mine, now);
    Map<String, Map<String, byte[]>> answer =
        transport.exchange(
            config.roomId(),
            List.of(
                minePublished,
                new Transport.Publication(GLOBAL_SCOPE, dataCenter, ReportCodec.encode(published))),
            retention);
    otherNodes = othersIn(answer);
    Map<String, Report> dcs = new HashMap<>();
    for (Report r : decodeAll(answer.get(GLOBAL_SCOPE))) {
      dcs.put(r.publisher(), r);
    }
    dcs.put(dataCenter, dataCenterSum(otherNodes, mine, now));
    return RoomView.of(config, now, dcs);
  }

  /**
   * The last view with this node's data center brought up to date from {@code mine}, for when
   * the transport cannot be reached: the node keeps accounting for its own admissions.
   */
  public RoomView localView(Report mine, long now, @Nullable RoomView last) {
    Map<String, Report> dcs = new HashMap<>(last == null ? Map.of() : last.dataCenters());
    List<Report> others = otherNodes;
    dcs.put(dataCenter, dataCenterSum(others == null ? List.of() : others, mine, now));
    return RoomView.of(config, now, dcs);
  }

  private List<Report> othersIn(Map<String, Map<String, byte[]>> answer) {
    List<Report> nodes = decodeAll(answer.get(dcScope));
    nodes.removeIf(r -> r.publisher().equals(publisher));
    return nodes;
  }

  /** The data center's sum; also ranks this node among the live nodes. */
  private Report dataCenterSum(List<Report> others, Report mine, long now) {
    List<Report> nodes = new ArrayList<>(others);
    nodes.add(mine);
    // A fixed order: the same reports always give the same sum, to the last bit of its time.
    nodes.sort(java.util.Comparator.comparing(Report::publisher));
    List<String> live = new ArrayList<>();
    for (Report r : others) {
      if (r.at() >= now - liveSeconds) {
        live.add(r.publisher());
      }
    }
    live.add(publisher);
    live.sort(null);
    nodeCount = live.size();
    nodeIndex = live.indexOf(publisher);
    // The sum is as old as its parts: its time is their mean time, weighted by each node's
    // admission rate, so that RoomView.unseenAdmissions() estimates what the sum cannot show yet.
    double rates = 0;
    double weightedAt = 0;
    for (Report r : nodes) {
      if (r != mine && r.at() < now - liveSeconds) {
        continue; // a node that stopped admits nobody: nothing of it is unseen
      }
      double rate = RoomView.admissionsPerSecond(config, r);
      rates += rate;
      weightedAt += rate * Math.min(r.at(), now);
    }
    long at = rates > 0 ? Math.round(weightedAt / rates) : now;
    Report sum = Report.sum(dataCenter, at, nodes);
    return new Report(
        dataCenter, at, nodeCount, sum.active(), sum.admitted(), sum.traffic(), sum.waiting());
  }

  /** The node's rank among the live nodes of its data center after the last exchange. */
  public int nodeIndex() {
    return nodeIndex;
  }

  /** How many live nodes its data center had at the last exchange (at least 1). */
  public int nodeCount() {
    return nodeCount;
  }

  /** This node's data center. */
  public String dataCenter() {
    return dataCenter;
  }

  private static List<Report> decodeAll(@Nullable Map<String, byte[]> values) {
    List<Report> out = new ArrayList<>();
    if (values == null) {
      return out;
    }
    values.forEach(
        (who, bytes) -> {
          try {
            out.add(ReportCodec.decode(bytes));
          } catch (IllegalArgumentException e) {
            log.warn("ignoring the report of '{}': {}", who, e.getMessage());
          }
        });
    return out;
  }
}
