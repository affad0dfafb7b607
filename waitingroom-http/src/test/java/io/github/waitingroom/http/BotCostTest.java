package io.github.waitingroom.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.ManualClock;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, not a test of speed (issue 42): what a place in line costs a bot, in places won
 * per second of the bot's CPU, against what the defence adds to an honest visitor's wait. Runs the
 * real {@link Gate} and room on a {@link ManualClock} (no HTTP: the bot's cost of a request is
 * left out, which favours the bot), on one thread whose CPU time it reads. Prints a table to
 * standard output and asserts only counts, never times. Off unless {@code
 * -Dwaitingroom.botCost=true}:
 *
 * <pre>
 * mvn -q -pl waitingroom-http -am test -Dtest=BotCostTest -Dsurefire.failIfNoSpecifiedTests=false -Dwaitingroom.botCost=true
 * </pre>
 */
@EnabledIfSystemProperty(named = "waitingroom.botCost", matches = "true")
class BotCostTest {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private static final String HTML = "text/html";
  private static final String JSON = "application/json";

  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T10:00:00Z"));

  private WaitingRoom room() {
    return WaitingRoom.builder(
            RoomConfig.builder("shop").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofHours(1))
                .waitingTimeout(Duration.ofHours(1)).build(),
            TicketKeys.generate())
        .clock(clock)
        .backgroundSync(false)
        .build();
  }

  private static GateRequest request(@Nullable String friction, @Nullable String query, String address, String accept) {
    return GateRequest.builder("", "GET").friction(friction).query(query).accept(accept).remoteAddress(address).build();
  }

  /** The challenge cookie's value an answer sets, or null. */
  private static @Nullable String challengeCookie(Gate gate, GateResponse r) {
    String c = r.setCookie();
    String prefix = gate.frictionCookieName() + "=";
    return c != null && c.startsWith(prefix) ? c.substring(prefix.length(), c.indexOf(';')) : null;
  }

  private static boolean placed(Gate gate, GateResponse r) {
    String c = r.setCookie();
    return c != null && c.startsWith(gate.placeCookieName() + "=");
  }

  private void advance(WaitingRoom room, long seconds) {
    clock.advance(Duration.ofSeconds(seconds));
    room.sync();
  }

  @Test
  void measure() {
    run(new StringBuilder()); // a first pass, not shown: the JIT compiles the code it runs
    StringBuilder out = new StringBuilder();
    run(out);
    System.out.println(out);
  }

  private void run(StringBuilder out) {
    out.append("\n| path | setting | bot | places won | bot CPU (s) | places per CPU-second | honest visitor's added wait |\n");
    out.append("| --- | --- | --- | ---: | ---: | ---: | --- |\n");
    for (int bits : bits()) {
      proofOfWork(bits, out);
    }
    for (int budget : new int[] {0, 30}) {
      for (int addresses : new int[] {1, 100}) {
        harvestAndRedeemLater(budget, addresses, out);
      }
    }
  }

  private static int[] bits() {
    String s = System.getProperty("waitingroom.botCost.bits", "8,12,16,18");
    return java.util.Arrays.stream(s.split(",")).mapToInt(x -> Integer.parseInt(x.strip())).toArray();
  }

  /** A bot that takes places by the proof of work: fetch a challenge, solve it, send the solution. */
  private void proofOfWork(int bits, StringBuilder out) {
    try (WaitingRoom room = room()) {
      Gate gate = Gate.builder(room).proofOfWork(bits).build();
      assertThat(gate.handle(request(null, null, "198.51.100.1", HTML)).passes()).as("takes the one slot").isTrue();
      int places = bits <= 12 ? 300 : bits <= 16 ? 60 : 20;
      long hashes = 0;
      long start = CPU.getCurrentThreadCpuTime();
      int won = 0;
      for (int i = 0; i < places; i++) {
        String address = "203.0.113." + (i % 250 + 1);
        GateResponse page = gate.handle(request(null, null, address, HTML));
        String cookie = java.util.Objects.requireNonNull(challengeCookie(gate, page));
        String token = cookie.substring(2);
        String nonce = ProofOfWork.solve(token, bits);
        hashes += Long.parseLong(nonce, 36) + 1;
        GateResponse r = gate.handle(request(cookie, "waitingRoomStatus=1&waitingRoomProof=" + token + "." + nonce, address, JSON));
        won += placed(gate, r) ? 1 : 0;
      }
      double cpu = (CPU.getCurrentThreadCpuTime() - start) / 1e9;
      assertThat(won).isEqualTo(places);
      double rate = hashes / cpu;
      out.append(String.format(Locale.ROOT,
          "| proof of work | %d bits | solves each | %d | %.2f | %.0f | one solve: 2^%d = %,d hashes on average (%.0f ms at this solver's %,.0f hashes/s; in a browser see the table in docs/security.md) |%n",
          bits, won, cpu, won / cpu, bits, 1L << bits, (1L << bits) / rate * 1000, rate));
    }
  }

  /**
   * The attack: harvest challenges (here 10,000) without solving any, wait out the
   * penalty, redeem them all, and again at the start of each of the next two minutes; beside it,
   * one honest visitor without JavaScript from its own address, who asks again every 5 s as its
   * page does.
   */
  private void harvestAndRedeemLater(int budget, int addresses, StringBuilder out) {
    try (WaitingRoom room = room()) {
      Gate gate = Gate.builder(room).proofOfWork(16).noScriptPlaces(budget).build();
      assertThat(gate.handle(request(null, null, "198.51.100.1", HTML)).passes()).isTrue();
      while (clock.instant().getEpochSecond() % 60 != 30) {
        advance(room, 1);
      }
      int harvest = 10_000;
      long start = CPU.getCurrentThreadCpuTime();
      List<@Nullable String> cookies = new ArrayList<>();
      List<String> from = new ArrayList<>();
      for (int i = 0; i < harvest; i++) {
        String address = "203.0." + (i % addresses >> 8) + "." + (i % addresses & 255);
        cookies.add(challengeCookie(gate, gate.handle(request(null, null, address, HTML))));
        from.add(address);
      }
      long harvestCpu = CPU.getCurrentThreadCpuTime() - start;
      String honestAddress = "192.0.2.77";
      String honest = challengeCookie(gate, gate.handle(request(null, null, honestAddress, HTML)));
      long honestSince = clock.instant().getEpochSecond();
      long honestPlacedAt = -1;
      advance(room, 30); // the penalty over, at the start of a minute
      int won = 0;
      long redeemCpu = 0;
      for (int minute = 0; minute < 3; minute++) {
        long t = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < harvest; i++) {
          String c = cookies.get(i);
          if (c == null) {
            continue;
          }
          if (placed(gate, gate.handle(request(c, null, from.get(i), HTML)))) {
            won++;
            cookies.set(i, null);
          }
        }
        redeemCpu += CPU.getCurrentThreadCpuTime() - t;
        for (int s = 0; s < 60; s += 5) {
          if (honestPlacedAt < 0) {
            GateResponse r = gate.handle(request(honest, null, honestAddress, HTML));
            if (placed(gate, r)) {
              honestPlacedAt = clock.instant().getEpochSecond();
            }
          }
          advance(room, 5);
        }
      }
      double cpu = (harvestCpu + redeemCpu) / 1e9;
      String wait = honestPlacedAt < 0
          ? "none placed in 3 minutes"
          : (honestPlacedAt - honestSince) + " s from its first page (the penalty is 30 s)";
      out.append(String.format(Locale.ROOT,
          "| no work (harvest 10,000, redeem after the penalty, 3 minutes) | noScriptPlaces %d | %d address%s | %d | %.2f | %.0f | without JavaScript: %s |%n",
          budget, addresses, addresses == 1 ? "" : "es", won, cpu, won / cpu, wait));
    }
  }
}
