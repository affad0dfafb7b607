package io.github.waitingroom.coordinator;

import static io.github.waitingroom.coordinator.Coordinator.SILENT_AFTER_EPOCHS;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this node counts the same publishers as the others (see {@link Report.Counted}): a node
 * the others cannot see (someone without the room's keys deletes its values, or makes them not
 * open, before the others read them) would otherwise plan with everyone's tallies and take its
 * share of the slots, while the others plan without it and take theirs. {@link VanishWatch} does
 * not see it: the others never knew it. Part of {@link Settlement}; used by the sync thread. Logs
 * under {@link StoreCoordinator}'s name.
 *
 * <p>After each exchange, {@link Settlement} notes whom this node counts in each epoch it has its
 * data center's sum of ({@link #note}), as soon as it knows: once every data center's sum of the
 * epoch is settled and it has read every tally its data center's sum is made of, whether or not
 * it can plan the epoch (its data center's sums may have reached the store too late for that, see
 * {@link SumVisibility}); its reports say so from then on. Before it hands out an epoch's tallies
 * ({@link Settlement#settled}), it asks {@link #agrees}, which refuses (no plan: the node keeps
 * its grant, as with a value that vanished) if they count other publishers than noted (one
 * counted silent published the epoch after all), and while
 *
 * <ul>
 *   <li>a report this node read (of a node of its data center, or a data center's sum) said its
 *       publisher counted, in an epoch this node counted too (one of its last {@value #KEPT}),
 *       other nodes of the data center or other data centers than this node did, until a report
 *       of that publisher says it counts the same (or it is silent, or gone): a publisher that
 *       stops saying whom it counts stays one that counts others; or
 *   <li>not every publisher it counts has shown yet that it counts this node: a node of its data
 *       center by counting the same nodes in an epoch from this node's joining on (the nodes this
 *       node counts include itself only from then on), a data center's sum by counting the same
 *       data centers in any epoch this node noted (the data centers it counts always include its
 *       own, since it notes only the epochs it has its data center's sum of). Each must say so
 *       once; without this, a node the others cannot see would plan the epochs before it reads
 *       any of their reports of an epoch it counted too. Once all have, a publisher that stops
 *       counting this node is one whose values vanished for it, which then stops planning itself
 *       ({@link VanishWatch}), and its reports stop this node by the first rule.
 * </ul>
 *
 * <p>Publishers of an earlier release say nothing of whom they count and are left out; a joining
 * node does not wait for silent publishers, nor for those that have counted nobody for more than
 * three epochs of their tallies (they plan nothing meanwhile, see {@link #plans}). A room of one
 * node has no one to compare with. Honest nodes count the same publishers for an epoch: they
 * settle it from the same published tallies, count a node from the epoch it joins at and a
 * silent one by the same rule, and note it only once they know all of them, so neither lag nor
 * the order in which sums arrive makes them differ; where they differ for a moment (a node
 * counted silent that publishes again, a data center forgotten at the turn of an epoch) the
 * plans stop until the epochs compared have moved past it. What an honest node does wait for is
 * the second rule, once, when it joins: the others' reports that show they count it, which are
 * all that tells it from a node they cannot see. A node that joins a data center the others
 * already count waits for the other nodes of its data center to note an epoch from its joining
 * on (about a sync after it could plan that epoch itself); the first node of a data center, for
 * the other data centers to note one (a round trip between data centers).
 */
final class Agreement {
  private static final Logger log = LoggerFactory.getLogger(StoreCoordinator.class);

  /** How many of its latest epochs a node compares with the others'. */
  static final int KEPT = 2 * Report.EPOCHS_KEPT;

  private final String roomId;
  private final String publisher;
  private final String dataCenter;
  /** Whom this node counted in its latest epochs, by epoch. */
  private final TreeMap<Long, Report.Counted> mine = new TreeMap<>();
  /** Whether every publisher this node counted has shown once that it counts the same ones. */
  private boolean confirmed;
  /** The publishers that have shown it (nodes by name, data centers by {@code "dc:"} and name), until then. */
  private final Set<String> confirmedBy = new HashSet<>();
  /**
   * The publishers that said they counted others than this node (nodes by name, data centers by
   * {@code "dc:"} and name), and what differed, until they say they count the same.
   */
  private final Map<String, String> differ = new TreeMap<>();
  /** What differed when this node last refused to plan for it, logged; {@code null} while they agree. */
  private @Nullable String logged;

  /**
   * @param publisher this node
   * @param dataCenter this node's data center
   */
  Agreement(String roomId, String publisher, String dataCenter) {
    this.roomId = roomId;
    this.publisher = publisher;
    this.dataCenter = dataCenter;
  }

  /** Whom this node counted in the latest epoch it settled, for its reports. */
  Report.Counted latest() {
    return mine.isEmpty() ? Report.Counted.NONE : mine.lastEntry().getValue();
  }

  /**
   * Whether every publisher this node counts has shown once that it counts the same ones, this
   * node's data center among them (the second rule of the class comment): the others know it.
   */
  boolean confirmedByAll() {
    return confirmed;
  }

  /** Whether this node has noted whom it counts in epoch {@code s}. */
  boolean noted(long s) {
    return mine.containsKey(s);
  }

  /**
   * Notes whom this node counts in an epoch ({@code counted}'s): what its reports say from then
   * on, and what it plans by, if at all.
   */
  void note(Report.Counted counted) {
    mine.put(counted.epoch(), counted);
    while (mine.size() > KEPT) {
      mine.pollFirstEntry();
    }
  }

  /**
   * Whether this node may plan by the tallies of epoch {@code s}, settled as {@code settled}: it
   * counts the publishers it noted for the epoch, and every report agrees (see the class comment).
   *
   * @param joined the epoch this node joined at
   * @param nodes the reports of this data center's nodes, by name
   * @param dataCenters the sums of every data center, by name
   */
  boolean agrees(long s, Coordinator.Settled settled, long joined, Map<String, Report> nodes,
      Map<String, Report> dataCenters) {
    Report.Counted noted = mine.get(s);
    if (noted == null || !noted.equals(Report.Counted.of(s, settled.nodeNames(), settled.dataCenterNames()))) {
      // Older than the epochs compared; not known (a tally of the epoch that this node has not
      // read, though its data center's sum, settled by another node, holds it: an answer that
      // lacked the value, as in a store fault; planning would split the data center's slots
      // among fewer nodes than the others do); or a publisher counted silent published the
      // epoch after all: the others planned it without.
      return false;
    }
    for (Report r : nodes.values()) {
      if (!r.publisher().equals(publisher)) {
        compare(r.publisher(), "node", r, true);
      }
    }
    for (Report r : dataCenters.values()) {
      compare("dc:" + r.publisher(), "data center", r, false);
    }
    // A disagreement lasts until the publisher says it counts the same, or is gone or silent.
    differ.keySet().removeIf(key -> {
      Report r = key.startsWith("dc:") ? dataCenters.get(key.substring(3)) : nodes.get(key);
      return r == null || r.latestEpoch() < s - SILENT_AFTER_EPOCHS;
    });
    boolean agree = differ.isEmpty() && confirmed(s, settled, joined, nodes, dataCenters);
    if (!differ.isEmpty() && logged == null) {
      logged = differ.values().iterator().next() + (differ.size() > 1 ? ", and " + (differ.size() - 1) + " more" : "");
      log.error("room '{}': other publishers count other nodes or data centers than this node ({}): someone without"
              + " the room's keys deletes values in the store before some nodes read them (this node's, for the"
              + " others?). This node plans nothing until they agree", roomId, logged);
    } else if (agree && logged != null) {
      logged = null;
      log.info("room '{}': every publisher counts the same nodes and data centers as this node again; planning again",
          roomId);
    }
    return agree;
  }

  /**
   * Compares whom {@code r} says its publisher counted with whom this node counted in that epoch,
   * if it still knows: the nodes too if {@code node}, else the data centers only.
   */
  private void compare(String key, String what, Report r, boolean node) {
    Report.Counted theirs = r.counted();
    Report.Counted own = ownOf(theirs);
    if (own == null || theirs == null) {
      return;
    }
    if (own.sameDataCenters(theirs) && (!node || own.sameNodes(theirs))) {
      differ.remove(key);
    } else {
      differ.put(key, describe(what, r.publisher(), theirs, own));
    }
  }

  /** Whom this node counted in the epoch that {@code theirs} is of, if this node still knows. */
  private Report.@Nullable Counted ownOf(Report.@Nullable Counted theirs) {
    return theirs == null || theirs.epoch() == Long.MIN_VALUE ? null : mine.get(theirs.epoch());
  }

  private static String describe(String what, String who, Report.Counted theirs, Report.Counted own) {
    return what + " '" + AnswerReader.printable(who) + "' counted " + theirs.nodes() + " nodes and " + theirs.dataCenters()
        + " data centers in epoch " + theirs.epoch() + " where this node counted " + own.nodes() + " and "
        + own.dataCenters();
  }

  /**
   * Whether every publisher this node counts in epoch {@code s} has shown once, for an epoch from
   * {@code joined} on, that it counts the same ones (only until all have: see the class comment).
   */
  private boolean confirmed(long s, Coordinator.Settled settled, long joined, Map<String, Report> nodes,
      Map<String, Report> dataCenters) {
    if (confirmed) {
      return true;
    }
    boolean all = true;
    for (String name : settled.nodeNames()) {
      Report r = nodes.get(name);
      if (r != null && !name.equals(publisher) && plans(r, s)) {
        all &= confirms(name, r, joined, true);
      }
    }
    for (String name : settled.dataCenterNames()) {
      Report r = dataCenters.get(name);
      if (r != null && !name.equals(dataCenter) && plans(r, s)) {
        // Any epoch this node noted: its data centers always hold its own (it notes only the
        // epochs it has its data center's sum of), whether this node had joined by then or not.
        all &= confirms("dc:" + name, r, Long.MIN_VALUE, false);
      }
    }
    if (all) {
      confirmed = true;
      confirmedBy.clear();
    }
    return all;
  }

  /**
   * Whether the publisher of {@code r} may plan epochs around {@code s}: it is of this release (it
   * says whom it counted), not silent, and what it counted is at most three epochs older than its
   * latest tally (it notes each epoch it settles about an epoch after tallying it). One that
   * counted nobody for longer settles nothing (a report it cannot read, a value that vanished, settings it lacks: it
   * keeps its grant, which its tallies report), so a joining node need not wait for it: during a
   * rolling upgrade to a format the others cannot read, the nodes of the new release go on planning.
   */
  private static boolean plans(Report r, long s) {
    Report.Counted counted = r.counted();
    return counted != null && r.latestEpoch() >= s - SILENT_AFTER_EPOCHS
        && r.latestEpoch() - Math.max(counted.epoch(), r.joined() - 1) <= SILENT_AFTER_EPOCHS + 1;
  }

  /** Whether {@code r} has shown, now or before, that it counts what this node counts (its nodes too if {@code node}). */
  private boolean confirms(String key, Report r, long joined, boolean node) {
    Report.Counted theirs = r.counted();
    Report.Counted own = ownOf(theirs);
    if (own != null && theirs != null && theirs.epoch() >= joined && own.sameDataCenters(theirs)
        && (!node || own.sameNodes(theirs))) {
      confirmedBy.add(key);
    }
    return confirmedBy.contains(key);
  }
}
