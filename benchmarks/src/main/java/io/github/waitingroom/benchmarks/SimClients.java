package io.github.waitingroom.benchmarks;

import static io.github.waitingroom.benchmarks.SimUsers.ACTIVE;
import static io.github.waitingroom.benchmarks.SimUsers.CLONE;
import static io.github.waitingroom.benchmarks.SimUsers.GONE;
import static io.github.waitingroom.benchmarks.SimUsers.HONEST;
import static io.github.waitingroom.benchmarks.SimUsers.WAITING;

import io.github.waitingroom.Decision;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.Ticket;
import io.github.waitingroom.TicketCodec;
import org.jspecify.annotations.Nullable;

/**
 * How the {@link SpikeSimulator}'s users behave: each request of a user (a first visit, a poll of
 * the waiting page, a page view once admitted), sent with the cookies it holds to a node of its
 * data center, and when it comes back, as its {@link ClientKind} honours the answer's {@code
 * refreshSeconds}. The hostile clients are {@link SimAdversaries}.
 */
final class SimClients {
  // The ordinals of ClientKind, as constants for switches (checked below).
  private static final byte HIDDEN_KIND = 1;
  private static final byte FROZEN_KIND = 2;
  private static final byte API_KIND = 3;

  static {
    if (ClientKind.HIDDEN.ordinal() != HIDDEN_KIND || ClientKind.FROZEN.ordinal() != FROZEN_KIND
        || ClientKind.API.ordinal() != API_KIND) {
      throw new AssertionError("ClientKind's order changed");
    }
  }

  private final SpikeSimulator sim;
  private final Scenario s;
  private final Adversity adv;
  private final SimUsers users;
  private final SimGroundTruth truth;
  private final SimResult result;
  private final TicketCodec codec;
  private final long refreshSeconds;
  /** The replayers and clones, who act on the users' tickets. */
  final SimAdversaries adversaries;

  /**
   * The clients of {@code sim}'s users, whose tickets {@code codec} opens; draws each user's kind
   * (and the kind's own draws), in user order, from the run's generator.
   */
  SimClients(SpikeSimulator sim, TicketCodec codec, long refreshSeconds) {
    this.sim = sim;
    this.s = sim.scenario;
    this.adv = s.adversity();
    this.users = sim.users;
    this.truth = sim.truth;
    this.result = sim.result;
    this.codec = codec;
    this.refreshSeconds = refreshSeconds;
    this.adversaries = new SimAdversaries(sim, this);
    for (int i = 0; i < users.users; i++) {
      ClientKind k = s.clientMix().pick(sim.random.nextDouble());
      users.clientKind[i] = (byte) k.ordinal();
      switch (k) {
        case API -> users.apiPeriodMillis[i] =
            sim.uniform(ClientKind.API_MIN_SECONDS * 1000L, ClientKind.API_MAX_SECONDS * 1000L + 1);
        case FROZEN -> {
          users.freezeStartMillis[i] =
              users.arrivalMillis[i] + sim.uniform(0, ClientKind.FREEZE_START_MAX_MINUTES * 60_000L);
          users.freezeMillis[i] = sim.uniform(ClientKind.FREEZE_MIN_MINUTES * 60_000L,
              ClientKind.FREEZE_MAX_MINUTES * 60_000L + 1);
        }
        case LEAVER -> users.patienceMillis[i] =
            s.patienceMean().isZero() ? Long.MAX_VALUE : sim.exponential(s.patienceMean().toMillis());
        default -> {}
      }
    }
  }

  /** User {@code u}'s next request, at {@code at}. */
  void request(int u, long at) {
    int second = (int) ((at - sim.warm) / 1000);
    switch (users.state[u]) {
      case SimUsers.NEW -> {
        truth.arrived(u, second);
        users.lastPollMillis[u] = at;
        PageAnswer a = page(u, at, 1);
        // A newcomer let in at once holds no place ticket: its arrival second is its session's.
        users.placeSecond[u] =
            a.letThrough() ? arrivalSecondOf(users.cookies.session(u), at) : placeSecondOf(u, at);
        if (a.letThrough()) {
          admit(u, at, false);
        } else {
          queue(u, at, a.first());
          result.queued++;
          result.queuedByDc[users.dataCenter[u]]++;
          result.kind(users.clientKind[u]).queued++;
          nextPoll(u, at, a.first());
        }
      }
      case WAITING -> poll(u, at);
      case ACTIVE -> {
        if (at >= users.browseEndMillis[u]) {
          users.state[u] = GONE;
          return;
        }
        PageAnswer a = page(u, at, adv.parallelRequests());
        if (a.letThrough()) {
          truth.letThrough(u, at, false);
        } else {
          // An admitted user turned away: a defect worth counting, then treated as waiting.
          result.bounced++;
          users.placeSecond[u] = placeSecondOf(u, at);
          queue(u, at, a.first());
          nextPoll(u, at, a.first());
          return;
        }
        sim.schedule(at + sim.uniform(s.thinkMin().toMillis(), s.thinkMax().toMillis()), u);
      }
      default -> {}
    }
  }

  /** A waiting user's poll (or its giving up). */
  private void poll(int u, long at) {
    if (at - users.arrivalMillis[u] >= users.patienceMillis[u]) {
      truth.leaveLine(u);
      users.state[u] = GONE;
      result.abandoned++;
      result.abandonedByDc[users.dataCenter[u]]++;
      result.kind(users.clientKind[u]).abandoned++;
      return;
    }
    if (users.kind[u] == HONEST) {
      result.kind(users.clientKind[u]).poll(at - users.lastPollMillis[u]);
    }
    users.lastPollMillis[u] = at;
    boolean holdsClone = users.kind[u] == CLONE || u == users.cloneVictim;
    long heldPlace = holdsClone ? placeOf(u, at) : Long.MIN_VALUE;
    PageAnswer a = page(u, at, 1);
    if (a.letThrough()) {
      if (holdsClone) {
        adversaries.clonedPlaceAdmitted(heldPlace, at);
      }
      truth.leaveLine(u);
      admit(u, at, true);
    } else {
      Decision d = a.first();
      if (d.outcome() == Decision.Outcome.QUEUE) {
        // The room no longer knew this ticket (or it was a copy): the user starts at the back.
        if (users.kind[u] == HONEST && !holdsClone) {
          result.lostPlace++;
          result.kind(users.clientKind[u]).lostPlace++;
        }
        truth.leaveLine(u);
        users.placeSecond[u] = placeSecondOf(u, at);
        queue(u, at, d);
        users.kind[u] = users.kind[u] == CLONE || u == users.cloneVictim ? CLONE : users.kind[u];
      } else if (users.kind[u] == HONEST) {
        truth.checkOrder(u, d);
        if (users.shownWait[u] < 0 && d.waitKnown()) {
          // The first estimate the user is told (a newcomer's is unknown until a plan
          // counted its arrival second): it is measured from now.
          users.shownAtMillis[u] = at;
          users.shownWait[u] = d.waitSeconds();
          users.shownLow[u] = d.waitLowSeconds();
          users.shownHigh[u] = d.waitHighSeconds();
        }
      }
      nextPoll(u, at, d);
    }
  }

  private void queue(int u, long at, Decision d) {
    users.state[u] = WAITING;
    truth.enterLine(u);
    users.queuedMillis[u] = at;
    if (users.firstQueuedMillis[u] < 0) {
      users.firstQueuedMillis[u] = at;
    }
    users.shownAtMillis[u] = d.waitKnown() ? at : -1;
    users.shownWait[u] = d.waitSeconds();
    users.shownLow[u] = d.waitLowSeconds();
    users.shownHigh[u] = d.waitHighSeconds();
    users.lastAhead[u] = d.usersAhead();
  }

  private void nextPoll(int u, long at, Decision d) {
    long refresh = d.refreshSeconds() > 0 ? d.refreshSeconds() : refreshSeconds;
    long poll = switch (users.clientKind[u]) {
      case HIDDEN_KIND -> at + ClientKind.HIDDEN_SECONDS * 1000L + sim.uniform(0, 500);
      case API_KIND -> at + users.apiPeriodMillis[u];
      default -> at + refresh * 1000 + sim.uniform(0, 500);
    };
    if (users.clientKind[u] == FROZEN_KIND && !users.froze[u] && poll >= users.freezeStartMillis[u]
        && users.kind[u] == HONEST) {
      // The tab freezes before its next poll and polls again (with its cookies) once it thaws.
      users.froze[u] = true;
      result.kind(users.clientKind[u]).froze++;
      poll = Math.max(poll, users.freezeStartMillis[u] + users.freezeMillis[u]);
    }
    long giveUp = users.patienceMillis[u] == Long.MAX_VALUE
        ? Long.MAX_VALUE : users.arrivalMillis[u] + users.patienceMillis[u];
    sim.schedule(Math.min(poll, giveUp), u);
  }

  private void admit(int u, long at, boolean fromLine) {
    users.state[u] = ACTIVE;
    truth.admitted(u, at, fromLine);
    users.browseEndMillis[u] = at + Math.max(10_000, sim.exponential(s.browseMean().toMillis()));
    truth.countAdmission(at);
    truth.letThrough(u, at, true);
    if (users.kind[u] == HONEST) {
      adversaries.admitted(u, at);
    }
    sim.schedule(at + sim.uniform(s.thinkMin().toMillis(), s.thinkMax().toMillis()), u);
  }

  /** What a page's requests got back: one decision for the page, and whether anything got in. */
  private record PageAnswer(Decision first, boolean letThrough, int admits) {}

  /**
   * Sends one page view of user {@code u}: {@code k} requests at once with the same cookies, each
   * to a random node of the user's data center. An admitted user's page view sends {@code
   * parallelRequests} (a page that fetches several things at once); a first visit is one request
   * (the browser's navigation, whose cookie the page's own fetches then carry) and so is a poll of
   * the waiting page (it fetches its status one request at a time). The responses come back in random
   * order and the browser keeps, for each cookie, the value of the last response that sets it; as
   * the HTTP adapters do, an answer that lets the request through sets the session cookie and any
   * other the place cookie. A cookie is dropped when its max-age has passed.
   */
  private PageAnswer page(int u, long at, int k) {
    if (users.cookies.sessionExpired(u, at)) {
      if (users.state[u] == ACTIVE && at < truth.sessionExpiry(u)) {
        result.cookieExpiredEarly++;
      }
      users.cookies.dropSession(u);
    }
    if (users.cookies.placeExpired(u, at)
        && !(users.clientKind[u] == FROZEN_KIND && users.state[u] == WAITING && users.kind[u] == HONEST)) {
      // The browser drops a cookie past its Max-Age; a frozen tab that comes back still presents
      // the one it held (its page never ran to notice), and the room decides.
      users.cookies.dropPlace(u);
      if (users.state[u] == WAITING && users.kind[u] == HONEST) {
        result.kind(users.clientKind[u]).cookieExpired++;
      }
    }
    String session = users.cookies.session(u);
    String place = users.cookies.place(u);
    Decision[] answers = new Decision[k];
    boolean through = false;
    int admits = 0;
    for (int i = 0; i < k; i++) {
      answers[i] = decide(u, session, place, at);
      through |= answers[i].letsThrough();
      admits += answers[i].outcome() == Decision.Outcome.ADMIT ? 1 : 0;
    }
    // The responses arrive in random order; each cookie keeps the last value set.
    int[] order = new int[k];
    for (int i = 0; i < k; i++) {
      int j = sim.random.nextInt(i + 1);
      order[i] = order[j];
      order[j] = i;
    }
    for (int i : order) {
      users.cookies.keep(u, answers[i], at);
    }
    if (admits > 1) {
      result.duplicateAdmits += admits - 1;
    }
    return new PageAnswer(answers[0], through, admits);
  }

  /** One request of user {@code u} with these cookies, to a node of its data center. */
  Decision decide(int u, @Nullable String session, @Nullable String place, long at) {
    int base = users.dataCenter[u] * s.nodesPerDataCenter();
    int pick = sim.random.nextInt(s.nodesPerDataCenter());
    WaitingRoom node = sim.node(base + (adv.sticky() ? u % s.nodesPerDataCenter() : pick), at);
    Decision d = node.decide(session, place);
    result.decisions++;
    if (sim.origin != null && d.letsThrough()) {
      sim.origin.answer(node, at);
    }
    return d;
  }

  /** The place (arrival second) of the user's current ticket, as the room wrote it. */
  private long placeSecondOf(int u, long at) {
    return arrivalSecondOf(users.cookies.place(u), at);
  }

  /** The arrival second of the place a ticket carries (waiting or session). */
  private long arrivalSecondOf(@Nullable String sealed, long at) {
    Ticket t = codec.open(sealed, SpikeSimulator.START_EPOCH_SECOND + Math.floorDiv(at - sim.warm, 1000));
    return t == null ? Long.MIN_VALUE : t.arrival() - SpikeSimulator.START_EPOCH_SECOND;
  }

  /** The place in line that user {@code u}'s place cookie holds, or {@code Long.MIN_VALUE}. */
  long placeOf(int u, long at) {
    Ticket t = codec.open(users.cookies.place(u), SpikeSimulator.START_EPOCH_SECOND + Math.floorDiv(at - sim.warm, 1000));
    return t == null ? Long.MIN_VALUE : t.place();
  }
}
