package io.github.waitingroom.redis;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import io.github.waitingroom.testsupport.Services;
import io.github.waitingroom.testsupport.FreePorts;

/** A private three-master Redis Cluster ({@code redis-server} processes, {@code redis-cli --cluster create}). */
final class RedisClusterProcesses implements AutoCloseable {
  private final List<Process> processes = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();

  static RedisClusterProcesses start(Path dir) throws Exception {
    Services.assume(onPath("redis-server") && onPath("redis-cli"), "redis-server or redis-cli is not on the PATH: the Redis Cluster tests need them");
    RedisClusterProcesses c = new RedisClusterProcesses();
    try {
      for (int i = 0; i < 3; i++) {
        int port = FreePorts.pick();
        File nodeDir = dir.resolve("node-" + port).toFile();
        if (!nodeDir.mkdirs()) {
          throw new IOException("cannot create " + nodeDir);
        }
        c.ports.add(port);
        c.processes.add(
            new ProcessBuilder(
                    "redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1",
                    "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--save", "", "--appendonly", "no")
                .directory(nodeDir)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start());
      }
      for (int port : c.ports) {
        waitForPort(port);
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
  String uri() {
    StringBuilder sb = new StringBuilder("redis-cluster://");
    for (int i = 0; i < ports.size(); i++) {
      sb.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports.get(i));
    }
    return sb.toString();
  }

  /** The seed URI in Lettuce's own form, for an admin cluster client. */
  String lettuceUri() {
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

  private static boolean onPath(String binary) {
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "/usr/bin:/usr/local/bin" : path).split(File.pathSeparator)) {
      if (new File(dir, binary).canExecute()) {
        return true;
      }
    }
    return false;
  }

  private static void waitForPort(int port) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException e) {
        Thread.sleep(20); // polling for the port to open
      }
    }
    throw new IOException("redis-server did not open port " + port);
  }

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
