package io.github.waitingroom;

import io.github.waitingroom.allocation.Plan;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Who one node may still admit under the plan it applied last. Request threads read it and take
 * slots for new arrivals lock-free; the sync thread replaces it.
 *
 * <p>A waiting holder is let in from the line by <em>who</em> it is, not by a count of slots:
 * every holder a plan's line counted and called by its arrival second ({@link Calls}) is let in
 * on whichever node it polls (on a node that did not count it, when the plans hold its slot
 * elsewhere: see {@link #slotHeldElsewhere}), and so is each holder of a partial second that
 * this node called itself (a few holders for each slot, or a draw: see {@link
 * Schedule#FIRST_COME_HOLDERS}). The plan made every such holder's slot free, so the room
 * admits at most what its limits leave, however the holders move between nodes. The slots of the
 * plan's partial second (by arrival) and those for new arrivals are counts, taken by one
 * compare-and-set each, so the node never admits more of either than it was granted, whatever
 * the number of threads.
 *
 * <p>In a crowd the partial second's slots go to whichever of its first holders poll this node
 * first (those among the first of its line, by place, as many as the plan gives the whole data
 * center slots for, and {@value #LATER_HOLDERS_FACTOR} times as many from half an epoch after
 * the grant took over: see {@link #partialOpen}), not to holders the node picks: without session
 * affinity a holder the node picked polls the other nodes of its data center next, and would keep
 * the slot from everyone until it missed two polls here, while the ones the other nodes picked
 * poll here. A tally counts what is left of them as reserved for as many of those holders (up to
 * the wider cut) as it still finds in the line (they are left out of the line), so the next plan
 * gives them back as it does any reserved slot; the rest go back to the room.
 */
final class Grant {
  /**
   * How many times as many of its first holders of the partial second a node opens its slots to,
   * half an epoch after its grant took over (see {@link #partialOpen}).
   */
  static final int LATER_HOLDERS_FACTOR = 5;

  /** The grant of a node that has applied no plan yet: nobody is called, no slot is free. */
  static Grant none(AtomicLong newSlots, AtomicLong partialSlots) {
    return new Grant(Plan.none(Long.MIN_VALUE), Long.MIN_VALUE, Long.MIN_VALUE, Calls.NONE, new long[0], newSlots,
        Long.MIN_VALUE, Long.MIN_VALUE, new long[0], partialSlots, Long.MIN_VALUE, Long.MIN_VALUE, Long.MAX_VALUE);
  }

  final Plan plan;
  /** When the tally the plan was made from was taken (epoch second). */
  final long tallySecond;
  /**
   * Waiting tickets with a place at or below this one have been called: the line has reached them
   * (at this node's partial calls, the places it called itself).
   */
  final long cutPlace;
  /** The holders the plans applied so far called by their arrival (see {@link Calls}). */
  final Calls calls;
  /** The places of partial seconds this node called and still counts in its line, sorted. */
  private volatile long[] partialCalled;
  /**
   * The slots for new arrivals left: one count per node, shared by all its grants, so that a
   * request that read the grant just before a new one took over still takes from what is left
   * (see {@link NodeState#activateIfDue}).
   */
  private final AtomicLong fresh;
  /**
   * The slots left for the first holders of partial seconds who poll here (see the class
   * comment): one count per node, shared by all its grants, as {@link #fresh}.
   */
  private final AtomicLong partialSlots;
  /** The last place whose holder may take one of {@link #partialSlots} as soon as the grant takes over. */
  final long partialCut;
  /** The last place whose holder may take one of {@link #partialSlots} from {@link #laterFromMillis} on. */
  final long partialCutLater;
  /** When the holders up to {@link #partialCutLater} may take the slots (room clock, ms). */
  final long laterFromMillis;
  /**
   * The last arrival second the plan itself called from the room's line (its cutoff, or every
   * second before its tally when it served the whole line); {@link Long#MIN_VALUE} for none, for
   * a plan a node made alone, and for one that counted a silent publisher (whose line it could
   * not see).
   */
  private final long planCut;
  /** The last second a holder may have been counted since to be in the line of the plan's tallies. */
  private final long planCountedBy;
  /** The places the other nodes of this data center reserved in the plan's tallies, sorted. */
  private final long[] peerReserved;

  Grant(Plan plan, long tallySecond, long cutPlace, Calls calls, long[] partialCalled, AtomicLong newSlots, long planCut,
      long planCountedBy, long[] peerReserved, AtomicLong partialSlots, long partialCut, long partialCutLater,
      long laterFromMillis) {
    this.plan = plan;
    this.tallySecond = tallySecond;
    this.cutPlace = cutPlace;
    this.calls = calls;
    this.partialCalled = partialCalled;
    this.fresh = newSlots;
    this.planCut = planCut;
    this.planCountedBy = planCountedBy;
    this.peerReserved = peerReserved;
    this.partialSlots = partialSlots;
    this.partialCut = partialCut;
    this.partialCutLater = partialCutLater;
    this.laterFromMillis = laterFromMillis;
  }

  /**
   * Whether the room's plans hold a slot for this called holder although this node did not count
   * it (its polls went to other nodes): the plan in force called it from the line of its tallies
   * (it was counted in some node's line since before they were taken, and its arrival is at or
   * below the plan's cut), or another node of this data center reserved it in those tallies. Either
   * way the slot is in the plan's sums, whichever node holds it, so letting the holder in here
   * takes none.
   */
  boolean slotHeldElsewhere(long place, long countedSince) {
    return countedSince <= planCountedBy && Ticket.arrivalOf(place) <= planCut
        || Arrays.binarySearch(peerReserved, place) >= 0;
  }

  /** Whether a waiting ticket with this place has been called. */
  boolean called(long place) {
    return place <= cutPlace;
  }

  /**
   * Whether a holder that arrived at this second queued since the tally of a plan that served the
   * whole line: its node had no slot for new arrivals left, and another node may still have one.
   */
  boolean queuedSinceServedLine(long arrival) {
    return plan.lineServed() && arrival >= tallySecond;
  }

  /**
   * Whether a holder with this place, counted in a line without a break since {@code
   * countedSince}, may be let in from the line here: a plan called it by its arrival, or it is one
   * of the holders of a partial second this node called (and still counts).
   */
  boolean lineCalled(long place, long countedSince) {
    return calls.called(Ticket.arrivalOf(place), countedSince) || partialCalled(place);
  }

  /** Whether this node called the holder of this place in a partial second, and still counts it. */
  boolean partialCalled(long place) {
    return Arrays.binarySearch(partialCalled, place) >= 0;
  }

  /**
   * Keeps only these of the called places of partial seconds (sorted): the ones this node's tally
   * found still in its line, and so counted as reserved. One who left is called again only after
   * a plan counts it again.
   */
  void keepPartialCalled(long[] places) {
    partialCalled = places;
  }

  /** Takes one slot for a user who arrived without a ticket (or came back after the line went on). */
  boolean takeNew() {
    return take(fresh);
  }

  /**
   * Whether the holder of this place, if the line has not called it, may take one of the slots
   * for the first holders of partial seconds here now (room clock, ms).
   *
   * <p>For the first half epoch after the plan gave the slots only as many of the first holders as
   * it gives their data center slots for may, so that the front of the line goes first, as told;
   * then {@value #LATER_HOLDERS_FACTOR} times as many, whoever polls first (slots a tally kept for
   * the holders stay as open as they were). Without session affinity the last of the first
   * holders are often away when their turn comes (in on another node, which learns of it a tally
   * later, polling the other nodes, or gone), and the slots they leave would wait for the next
   * plan: in {@code flash20x5} some 40 of a data center's slots sat unused at every tally, and the
   * room stood at 94-95 % of its limit while people waited. Twice as many holders from the start
   * gave 96.2-96.6 %, and the front of the line waited longer than it was told. Half an epoch's
   * head start for the first, then five times as many, gave 97.1-97.5 %; four times as many
   * 96.7-96.9 % with better estimates, six or more no more (section 17 of the results diary: git
   * history of benchmarks/README.md).
   */
  boolean partialOpen(long place, long nowMillis) {
    return (place <= partialCut || place <= partialCutLater && nowMillis >= laterFromMillis) && partialSlots.get() > 0;
  }

  /** Takes one of the slots for the first holders of partial seconds (see {@link #partialOpen}). */
  boolean takePartial() {
    return take(partialSlots);
  }

  /** The slots for the first holders of partial seconds left (outstanding at a tally). */
  long outstandingPartial() {
    return partialSlots.get();
  }

  private static boolean take(AtomicLong slots) {
    for (long left = slots.get(); left > 0; left = slots.get()) {
      if (slots.compareAndSet(left, left - 1)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether this node has called holders under its plan who may not have come yet, or has slots
   * for new arrivals left: holders near the front then poll faster, so that a called holder comes
   * before giving up, and one who has gone is known to be gone soon.
   */
  boolean callsOpen() {
    return hasNew();
  }

  /** Whether any slot for new arrivals is left. */
  boolean hasNew() {
    return fresh.get() > 0;
  }

  long outstandingNew() {
    return fresh.get();
  }
}
