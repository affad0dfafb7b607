package io.github.waitingroom.http;

import io.github.waitingroom.Decision;
import io.github.waitingroom.Seal;
import io.github.waitingroom.WaitingRoom;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The friction newcomers face while people wait ({@link Gate.Builder#proofOfWork}, {@link
 * Gate.Builder#humanCheck}): the challenge page, the checks of a proof of work and of a human-check
 * token, the {@linkplain Gate.Builder#noScriptPlaces no-script budget}, and the infinite queue for
 * a client the human check flagged. Every challenge is bound to the {@linkplain ClientAddress
 * address} of the client it was issued to. Its state is the budget ({@link NoScriptBudget}) and the
 * proof of work's spent set, both lock-free on the way that checks them.
 */
final class Friction {
  private static final String CHALLENGE_PREFIX = "c.";
  private static final String FLAG_PREFIX = "f.";

  private final WaitingRoom room;
  private final CookiePolicy cookies;
  private final Answers answers;
  private final String statusParam;
  private final ProofOfWork pow;
  private final @Nullable HumanCheck human;
  private final @Nullable Seal flagSeal;
  private final long penaltySeconds;
  /** Places a minute for waiting out the penalty alone ({@link Gate.Builder#noScriptPlaces}), per node and per client. */
  private final NoScriptBudget noScript;
  /** The extra sources the challenge page's policy allows for the human check's widget ("" for none). */
  private final String widgetSources;

  Friction(GateOptions<?> b, CookiePolicy cookies, Answers answers, String statusParam) {
    this.room = b.room;
    this.cookies = cookies;
    this.answers = answers;
    this.statusParam = statusParam;
    this.human = b.get(GateSettings.HUMAN_CHECK);
    this.pow = new ProofOfWork(room.seal("pow"), b.get(GateSettings.PROOF_OF_WORK), ProofOfWork.DEFAULT_TTL_SECONDS);
    this.flagSeal = human != null ? room.seal("flag") : null;
    this.penaltySeconds = b.get(GateSettings.CHALLENGE_PENALTY).toSeconds();
    this.noScript = new NoScriptBudget(b.get(GateSettings.NO_SCRIPT_PLACES));
    this.widgetSources = human == null ? "" : " " + String.join(" ", human.widget().sources());
  }

  /** A challenge shown to a newcomer: its token, difficulty, and the seconds left of the penalty. */
  record Challenged(String token, int difficulty, long remainingSeconds) {}

  /** {@link Gate#handle} with friction on: may wait for the human check, at most its timeout. */
  GateResponse handle(GateRequest request) {
    GateResponse unchallenged = unchallenged(request);
    if (unchallenged != null) {
      return unchallenged;
    }
    HumanCheck.Verdict verdict = null;
    String token = humanToken(request);
    if (token != null) {
      HumanCheck h = Objects.requireNonNull(human);
      try {
        // Never longer than the check's timeout on a request thread, whatever the check does.
        verdict = h.verify(token, request.remoteAddress()).toCompletableFuture()
            .get(waitNanos(h), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        verdict = HumanCheck.Verdict.FAILED;
      } catch (Exception e) {
        verdict = HumanCheck.Verdict.FAILED;
      }
    }
    return challenge(request, verdict);
  }

  /** {@link Gate#handleAsync} for a request that {@link #mayBlock}: completes when the check has answered. */
  CompletionStage<GateResponse> handleAsync(GateRequest request) {
    GateResponse unchallenged = unchallenged(request);
    if (unchallenged != null) {
      return CompletableFuture.completedFuture(unchallenged);
    }
    HumanCheck h = Objects.requireNonNull(human);
    CompletionStage<HumanCheck.Verdict> asked;
    try {
      asked = h.verify(Objects.requireNonNull(humanToken(request)), request.remoteAddress());
    } catch (RuntimeException e) {
      asked = CompletableFuture.completedFuture(HumanCheck.Verdict.FAILED);
    }
    CompletableFuture<HumanCheck.Verdict> bounded = new CompletableFuture<>();
    asked.whenComplete((v, failure) -> bounded.complete(failure != null || v == null ? HumanCheck.Verdict.FAILED : v));
    bounded.completeOnTimeout(HumanCheck.Verdict.FAILED, waitNanos(h), TimeUnit.NANOSECONDS);
    return bounded.thenApply(v -> challenge(request, v));
  }

  /** How long a request thread waits for a human check: its timeout, at most 30 s. */
  private static long waitNanos(HumanCheck h) {
    Duration t = h.timeout();
    return t == null || t.isNegative() ? 0 : Math.min(t.toNanos(), TimeUnit.SECONDS.toNanos(30));
  }

  /**
   * Whether the request brings back a challenge this room issued to its address, or the infinite
   * queue's marker: it came back, as a newcomer must before it counts ({@link Confirmation}).
   */
  boolean holdsOwn(GateRequest request) {
    String f = request.friction();
    if (f == null) {
      return false;
    }
    if (f.startsWith(FLAG_PREFIX)) {
      return flagSeal != null && flagged(f.substring(2));
    }
    ProofOfWork.Challenge held = f.startsWith(CHALLENGE_PREFIX) ? pow.open(f.substring(2), room.nowSecond()) : null;
    return held != null && held.client() == ClientAddress.key(request.remoteAddress());
  }

  /** Whether answering may wait for I/O: the request carries a token for the human check. */
  boolean mayBlock(GateRequest request) {
    return human != null && humanToken(request) != null;
  }

  private @Nullable String humanToken(GateRequest request) {
    if (human == null) {
      return null;
    }
    String t = QueryFlags.queryValue(request.query(), HumanCheck.PARAM);
    if (t == null || t.isEmpty() || t.length() > 3 * HumanCheck.MAX_TOKEN_LENGTH) {
      return null;
    }
    // As sent in the query: decoded once here, encoded once by the check's form.
    String decoded;
    try {
      decoded = t.indexOf('%') < 0 && t.indexOf('+') < 0 ? t : URLDecoder.decode(t, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return decoded.isEmpty() || decoded.length() > HumanCheck.MAX_TOKEN_LENGTH ? null : decoded;
  }

  /**
   * The answer to a request that needs no challenge: the worker script, the infinite queue, or
   * the room's decision when it is not {@link Decision.Outcome#CHALLENGE} (decided with {@code
   * mayQueue} false). {@code null} when the request is a newcomer to challenge.
   */
  private @Nullable GateResponse unchallenged(GateRequest request) {
    GateResponse early = beforeDeciding(request);
    if (early != null) {
      return early;
    }
    Decision d = room.decide(request.ticket(), request.place(), false);
    return d.outcome() == Decision.Outcome.CHALLENGE ? null : answers.respond(d, request);
  }

  /**
   * What a room with friction answers before deciding: the worker script, and the infinite queue
   * for a client the human check flagged. Neither looks at the request's tickets.
   */
  private @Nullable GateResponse beforeDeciding(GateRequest request) {
    String f = request.friction();
    if (f != null && flagSeal != null && f.startsWith(FLAG_PREFIX) && flagged(f.substring(2))) {
      return answers.infiniteQueue(request, null);
    }
    String q = request.query();
    if (q != null && QueryFlags.hasValue(q, statusParam, ProofOfWork.WORKER)) {
      return Answers.workerScript();
    }
    return null;
  }

  /**
   * A newcomer the room would put in line, not yet let queue: it gets a place if it passed the
   * human check, or sent a proof of work that solves the challenge its own cookie holds, issued to
   * its own address, and not spent on this node; or, within the {@linkplain
   * Gate.Builder#noScriptPlaces no-script budget} (the node's and its address's), holds such a
   * challenge at least the penalty old. A failed or never answered human check gets nothing by
   * itself. A flagged client goes to the infinite queue; anyone else gets the challenge page, with
   * a fresh challenge when its own was spent, expired or issued to another address.
   */
  private GateResponse challenge(GateRequest request, HumanCheck.@Nullable Verdict verdict) {
    ProofOfWork p = pow;
    long now = room.nowSecond();
    if (verdict == HumanCheck.Verdict.FLAGGED) {
      return answers.infiniteQueue(request, flagCookie(request, now));
    }
    String f = request.friction();
    long client = ClientAddress.key(request.remoteAddress());
    ProofOfWork.Challenge held = f != null && f.startsWith(CHALLENGE_PREFIX) ? p.open(f.substring(2), now) : null;
    if (held != null && held.client() != client) {
      // Fetched through another address (harvested, or the client moved): worth nothing here.
      held = null;
    }
    boolean pass = verdict == HumanCheck.Verdict.PASSED;
    String proof = pass || p.difficulty() == 0 ? null : QueryFlags.queryValue(request.query(), ProofOfWork.PARAM);
    if (proof != null && held != null) {
      // Only the challenge this client's cookie holds: a challenge fetched by another client (a
      // harvester's) gets no place here, whoever solved it.
      String t = held.token();
      int dot = t.length();
      pass = proof.length() > dot + 1 && proof.charAt(dot) == '.' && proof.startsWith(t)
          && ProofOfWork.solves(t, proof.substring(dot + 1), held.difficulty()) && p.spend(held, now);
    }
    if (!pass && held != null && noScript.on() && now - held.issued() >= penaltySeconds && !p.spent(held)
        && noScript.take(client, now)) {
      pass = p.spend(held, now);
    }
    if (pass) {
      return answers.respond(room.decide(request.ticket(), request.place(), true), request);
    }
    String token;
    String setCookie = null;
    long remaining;
    if (held != null && !p.spent(held)) {
      token = held.token();
      long age = now - held.issued();
      // Past the penalty without a budget left (or none at all), the page asks again after a
      // whole penalty: never a reload every second.
      remaining = age < penaltySeconds ? penaltySeconds - age : noScript.on() ? Math.min(penaltySeconds, 5) : penaltySeconds;
    } else {
      token = p.issue(now, client);
      setCookie = cookies.friction(request, CHALLENGE_PREFIX + token, p.ttlSeconds());
      remaining = Math.max(1, penaltySeconds);
    }
    return answers.challenge(new Challenged(token, p.difficulty(), remaining), setCookie, request, now, widgetSources);
  }

  private String flagCookie(GateRequest request, long now) {
    byte[] marker = ByteBuffer.allocate(16).putLong(now).putLong(Csp.randomLong()).array();
    return cookies.friction(request, FLAG_PREFIX + Objects.requireNonNull(flagSeal).seal(marker), HumanCheck.FLAGGED_SECONDS);
  }

  private boolean flagged(String marker) {
    byte[] m = Objects.requireNonNull(flagSeal).open(marker);
    if (m == null || m.length != 16) {
      return false;
    }
    long age = room.nowSecond() - ByteBuffer.wrap(m).getLong();
    return age >= -30 && age < HumanCheck.FLAGGED_SECONDS;
  }
}
