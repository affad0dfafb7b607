package io.github.waitingroom.testsupport;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A private {@code redis-server} on a free port, for the tests that stop, restart or flush Redis:
 * those must never touch the shared server other runs use. Without persistence, as in production
 * caches: a restart comes back empty. {@link RedisClusterProcesses} starts its nodes the same way.
 */
public final class RedisServerProcess implements AutoCloseable {
  private final int port;
  private @Nullable Process process;

  private RedisServerProcess(int port) {
    this.port = port;
  }

  /** Starts one, or skips the test (fails when services are required) without the binary. */
  public static RedisServerProcess start() throws IOException, InterruptedException {
    String binary = findBinary("redis-server");
    Services.assume(binary != null, "redis-server is not on the PATH: tests that stop or flush a private Redis need it");
    RedisServerProcess r = new RedisServerProcess(FreePorts.pick());
    r.startProcess();
    return r;
  }

  /** The path of an executable on the {@code PATH} (or in /usr/bin, /usr/local/bin without one), or {@code null}. */
  static @Nullable String findBinary(String name) {
    String path = System.getenv("PATH");
    for (String dir : (path == null ? "/usr/bin:/usr/local/bin" : path).split(File.pathSeparator)) {
      File f = new File(dir, name);
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    return null;
  }

  /** Where it listens, as a Redis URI. */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** The port it listens on. */
  public int port() {
    return port;
  }

  /** Starts the server (again, after {@link #stop}) on its port, and waits until it accepts connections. */
  public void startProcess() throws IOException, InterruptedException {
    process = launch(port, null, List.of());
    awaitPort(port);
  }

  /**
   * Starts a {@code redis-server} without persistence on 127.0.0.1 and {@code port}, its output
   * discarded.
   *
   * @param dir its working directory, or {@code null} for this process's
   * @param options more options, after the port and the address
   */
  static Process launch(int port, @Nullable File dir, List<String> options) throws IOException {
    List<String> command = new ArrayList<>(
        List.of(String.valueOf(findBinary("redis-server")), "--port", String.valueOf(port), "--bind", "127.0.0.1"));
    command.addAll(options);
    command.addAll(List.of("--save", "", "--appendonly", "no"));
    return new ProcessBuilder(command)
        .directory(dir)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  /** Waits until a server accepts connections on 127.0.0.1 and {@code port}. */
  static void awaitPort(int port) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException e) {
        Thread.sleep(20); // polling for the port to open, not waiting for time to pass
      }
    }
    throw new IOException("redis-server did not open port " + port);
  }

  /** Kills the server, as a crash or a restart would. */
  public void stop() throws InterruptedException {
    Process p = process;
    if (p != null) {
      p.destroyForcibly();
      p.waitFor(20, TimeUnit.SECONDS);
      process = null;
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }
}
