package io.github.waitingroom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.waitingroom.TicketKeys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.github.waitingroom.testsupport.LocalRedis;

/**
 * Three JVMs in two data centers ({@code dc-a}: two nodes, {@code dc-b}: one) against the real
 * Redis, visitors who arrive and, while queued, poll the node they queued at once a round, driven
 * over HTTP in rounds of one simulated second (one epoch): the test sends arrivals,
 * then moves every node's clock to each quarter of the next second and has every node sync there,
 * as their background threads would. One JVM is killed when the room is full; the others must not
 * admit anyone in its users' place while their sessions last. Time is virtual (see {@link
 * NodeMain}). Tagged {@code slow} (-P full): every build runs the killed node within one JVM
 * ({@code MultiDataCenterTest.aNodeThatDiesKeepsItsUsersCountingAndTheOthersDoNotOverAdmit}).
 */
@Tag("slow")
class MultiProcessTest {
  private static final long START = 1_800_000_005L;
  private static final int LIMIT = 24;

  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  private String prefix = "";
  private String uri = "";

  private record NodeProcess(Process process, int port) {}

  @AfterEach
  void stop() throws Exception {
    for (Process p : processes) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
    }
    if (!uri.isEmpty()) {
      RedisClient admin = LocalRedis.adminClient(uri);
      try (StatefulRedisConnection<String, String> c = admin.connect()) {
        RedisSupport.deleteKeys(c.sync(), prefix);
      } finally {
        admin.shutdown();
      }
    }
  }

  /** Starts a node's JVM; it listens, connected to Redis, until it is told to join. */
  private CompletableFuture<NodeProcess> launch(String room, String dc, String node, Path keyset) throws IOException {
    String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process p =
        new ProcessBuilder(
                java, "-Xmx96m", "-XX:TieredStopAtLevel=1",
                // Small answers must not wait for a delayed ACK (Nagle): 40 ms per request otherwise.
                "-Dsun.net.httpserver.nodelay=true", "-cp", System.getProperty("java.class.path"),
                NodeMain.class.getName(), uri, prefix, room, dc, node, keyset.toString(), String.valueOf(LIMIT))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    processes.add(p);
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    return CompletableFuture.supplyAsync(() -> {
      try {
        for (String l; (l = out.readLine()) != null; ) {
          if (l.startsWith("PORT ")) {
            return new NodeProcess(p, Integer.parseInt(l.substring(5).trim()));
          }
        }
        throw new IllegalStateException("node " + dc + "/" + node + " ended before it listened");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** Lets a started node join the room: its first sync, with its clock at {@code millis}. */
  private NodeProcess join(CompletableFuture<NodeProcess> launched, long millis) throws Exception {
    NodeProcess n = launched.get(2, TimeUnit.MINUTES);
    assertThat(get(n, "/admin/join?millis=" + millis, "POST")).isEqualTo("ok");
    return n;
  }

  private String get(NodeProcess n, String pathAndQuery, String method) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + n.port() + pathAndQuery)).timeout(Duration.ofSeconds(30));
    HttpRequest request = method.equals("POST") ? b.POST(HttpRequest.BodyPublishers.noBody()).build() : b.GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /** Waiting tickets by node: the visitors queued there, who poll it once a round. */
  private final Map<NodeProcess, List<String>> lines = new HashMap<>();

  /** A new visitor at node {@code n}; returns whether they got in. */
  private boolean arrive(NodeProcess n) throws Exception {
    String[] answer = get(n, "/visit?ticket=", "GET").split(" ");
    if (answer[0].equals("ADMIT")) {
      return true;
    }
    lines.computeIfAbsent(n, k -> new ArrayList<>()).add(answer[1]);
    return false;
  }

  /** Every visitor queued at {@code n} polls it once; returns how many got in. */
  private int poll(NodeProcess n) throws Exception {
    List<String> line = lines.getOrDefault(n, new ArrayList<>());
    int in = 0;
    for (int i = 0; i < line.size(); i++) {
      String[] answer = get(n, "/visit?ticket=" + URLEncoder.encode(line.get(i), StandardCharsets.UTF_8), "GET")
          .split(" ");
      if (answer[0].equals("ADMIT")) {
        line.remove(i--);
        in++;
      } else if (answer.length > 1) {
        line.set(i, answer[1]);
      }
    }
    return in;
  }

  private void round(List<NodeProcess> nodes, long second) throws Exception {
    for (int quarter = 0; quarter < 4; quarter++) {
      long millis = second * 1000 + 125 + 250 * quarter;
      for (NodeProcess n : nodes) {
        get(n, "/admin/clock?millis=" + millis, "POST");
      }
      for (NodeProcess n : nodes) {
        assertThat(get(n, "/admin/sync", "POST")).as("sync through Redis").startsWith("false ");
      }
    }
  }

  private long activeSeenBy(NodeProcess n) throws Exception {
    return Long.parseLong(get(n, "/admin/sync", "POST").split(" ")[1]);
  }

  @Test
  void threeJvmsInTwoDataCentersKeepOneLimitAndAKilledJvmsUsersKeepCounting(@TempDir Path dir) throws Exception {
    uri = LocalRedis.require();
    prefix = LocalRedis.uniquePrefix("multi-process");
    String room = "multi-process-" + UUID.randomUUID().toString().substring(0, 8);
    Path keyset = dir.resolve("keyset.json");
    Files.writeString(keyset, TicketKeys.toJson(TicketKeys.generate()));
    // The three start together: they join in the same instant of the room's clock.
    CompletableFuture<NodeProcess> startedA1 = launch(room, "dc-a", "n1", keyset);
    CompletableFuture<NodeProcess> startedA2 = launch(room, "dc-a", "n2", keyset);
    CompletableFuture<NodeProcess> startedB1 = launch(room, "dc-b", "n1", keyset);
    long second = START;
    NodeProcess a1 = join(startedA1, second * 1000 + 40);
    NodeProcess a2 = join(startedA2, second * 1000 + 40);
    NodeProcess b1 = join(startedB1, second * 1000 + 40);
    List<NodeProcess> all = List.of(a1, a2, b1);
    round(all, second);
    int admitted = 0;
    int admittedByA2 = 0;
    for (int r = 0; r < 20; r++) {
      for (NodeProcess n : all) {
        int in = poll(n);
        for (int i = 0; i < 2; i++) {
          in += arrive(n) ? 1 : 0;
        }
        admitted += in;
        admittedByA2 += n == a2 ? in : 0;
      }
      round(all, ++second);
    }
    System.out.printf("multi-process: admitted=%d limit=%d byKilledNode=%d%n", admitted, LIMIT, admittedByA2);
    // Three JVMs, one limit, held exactly: and the room did fill up.
    assertThat(admitted).isEqualTo(LIMIT);
    assertThat(activeSeenBy(b1)).isEqualTo(LIMIT);
    assertThat(admittedByA2).as("the node to be killed admitted some").isPositive();

    a2.process().destroyForcibly();
    a2.process().waitFor(20, TimeUnit.SECONDS);
    List<NodeProcess> survivors = List.of(a1, b1);
    int afterKill = 0;
    for (int r = 0; r < 30; r++) {
      for (NodeProcess n : survivors) {
        afterKill += r % 5 == 0 ? poll(n) : 0;
        afterKill += arrive(n) ? 1 : 0;
      }
      round(survivors, ++second);
    }
    assertThat(activeSeenBy(a1)).isEqualTo(admitted);
    assertThat(activeSeenBy(b1)).isEqualTo(admitted);
    assertThat(afterKill).as("admissions after the kill, while every earlier session lasts").isZero();
  }
}
