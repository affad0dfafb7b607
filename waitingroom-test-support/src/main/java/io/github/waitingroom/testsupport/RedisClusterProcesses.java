package io.github.waitingroom.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private three-master Redis Cluster ({@code redis-server} processes started as {@link
 * RedisServerProcess} starts one, joined by {@code redis-cli --cluster create}).
 */
public final class RedisClusterProcesses implements AutoCloseable {
  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();

  /**
   * Starts one with its nodes' files under {@code dir}, and waits until the cluster is ok; or
   * skips the test (fails when services are required) without the binaries.
   */
  public static RedisClusterProcesses start(Path dir) throws Exception {
    Services.assume(RedisServerProcess.findBinary("redis-server") != null && RedisServerProcess.findBinary("redis-cli") != null,
        "redis-server or redis-cli is not on the PATH: the Redis Cluster tests need them");
    RedisClusterProcesses c = new RedisClusterProcesses();
    try {
      for (int i = 0; i < 3; i++) {
        int port = FreePorts.pick();
        File nodeDir = dir.resolve("node-" + port).toFile();
        if (!nodeDir.mkdirs()) {
          throw new IOException("cannot create " + nodeDir);
        }
        c.ports.add(port);
        c.processes.add(RedisServerProcess.launch(
            port, nodeDir, List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")));
      }
      for (int port : c.ports) {
        RedisServerProcess.awaitPort(port);
      }
      List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
      for (int port : c.ports) {
        create.add("127.0.0.1:" + port);
      }
      create.add("--cluster-yes");
      Process cli = new ProcessBuilder(create).redirectErrorStream(true).start();
      String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!cli.waitFor(60, TimeUnit.SECONDS) || cli.exitValue() != 0) {
        throw new IOException("redis-cli --cluster create failed: " + output);
      }
      c.waitForClusterOk();
      return c;
    } catch (Exception e) {
      c.close();
      throw e;
    }
  }

  /** The seed URI in this transport's cluster form. */
  public String uri() {
    StringBuilder sb = new StringBuilder("redis-cluster://");
    for (int i = 0; i < ports.size(); i++) {
      sb.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports.get(i));
    }
    return sb.toString();
  }

  /** The seed URI in Lettuce's own form, for an admin cluster client. */
  public String lettuceUri() {
    return uri().replace("redis-cluster://", "redis://");
  }

  private void waitForClusterOk() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      boolean ok = true;
      for (int port : ports) {
        Process info = new ProcessBuilder("redis-cli", "-p", String.valueOf(port), "cluster", "info").start();
        String out = new String(info.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        info.waitFor(10, TimeUnit.SECONDS);
        ok &= out.contains("cluster_state:ok");
      }
      if (ok) {
        return;
      }
      Thread.sleep(50); // polling for the cluster to settle, not waiting for time
    }
    throw new IOException("the cluster did not reach cluster_state:ok");
  }

  /** Kills its nodes. */
  @Override
  public void close() throws InterruptedException {
    for (Process p : processes) {
      p.destroyForcibly();
    }
    for (Process p : processes) {
      p.waitFor(20, TimeUnit.SECONDS);
    }
  }
}
