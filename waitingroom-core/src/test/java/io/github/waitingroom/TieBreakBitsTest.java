package io.github.waitingroom;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.KeysetHandle;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * Nodes draw their newcomers' tie-break bits at random, each node its own. Two demo nodes over
 * Redis once gave the first newcomers of a crowd the same places: the default generator was the
 * {@link ThreadLocalRandom} instance, whose draws on a request thread that never called {@code
 * current()} follow the thread's id, alike in every JVM. The room then took two users for one
 * ticket (the second node's count of its user was taken back as a duplicate, and its later
 * requests arrived anew) and let in 53 to 58 users for a limit of 50. Each node here is a JVM of
 * its own, started alike, as production nodes are.
 */
class TieBreakBitsTest {
  private static final int NEWCOMERS = 4;

  @Test
  void twoNodesStartedAlikeDrawDifferentTieBreakBits() throws Exception {
    assertThat(newcomersOfANode("default")).doesNotContainAnyElementsOf(newcomersOfANode("default"));
  }

  @Test
  void aThreadLocalRandomGivenToTheBuilderDrawsOnEachThreadOfItsOwn() throws Exception {
    assertThat(newcomersOfANode("thread-local")).doesNotContainAnyElementsOf(newcomersOfANode("thread-local"));
  }

  /** The tie-break bits of the places a node in a JVM of its own gave its first newcomers. */
  private static List<String> newcomersOfANode(String random) throws IOException, InterruptedException {
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    // The tests run on the module path (the core is a module); the node runs on the class path.
    String classPath = System.getProperty("java.class.path") + File.pathSeparator + System.getProperty("jdk.module.path", "");
    Process p = new ProcessBuilder(java, "-Xmx64m", "-XX:TieredStopAtLevel=1",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", classPath, Node.class.getName(), random)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("the node's exit code; it printed: %s", out).isZero();
    List<String> bits = out.lines().toList();
    assertThat(bits).as("one line per newcomer").hasSize(NEWCOMERS);
    return bits;
  }

  /** One node: its first newcomers, each on a request thread of its own, as a server's pool starts them. */
  static final class Node {
    public static void main(String[] args) throws Exception {
      KeysetHandle keys = TicketKeys.generate();
      RoomConfig config = RoomConfig.builder("bits").totalActiveUsers(100).newUsersPerMinute(100)
          .sessionDuration(Duration.ofMinutes(1)).build();
      WaitingRoom.Builder b = WaitingRoom.builder(config, keys).backgroundSync(false);
      if (args[0].equals("thread-local")) {
        b.random(ThreadLocalRandom.current());
      }
      try (WaitingRoom room = b.build()) {
        List<String> bits = new ArrayList<>();
        for (int i = 0; i < NEWCOMERS; i++) {
          // One thread after another: join() makes each one's place visible to the next.
          Thread t = new Thread(() -> {
            Decision d = room.decide(null);
            long place = Inside.placeOf(room, Objects.requireNonNull(d.ticket()), Instant.now().getEpochSecond());
            bits.add(HexFormat.of().toHexDigits((int) place));
          });
          t.start();
          t.join();
        }
        bits.forEach(System.out::println);
      }
    }
  }
}
