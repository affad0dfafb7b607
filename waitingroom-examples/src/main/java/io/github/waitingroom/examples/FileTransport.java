package io.github.waitingroom.examples;

import io.github.waitingroom.coordinator.Transport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How to write your own coordinator {@link Transport}: this one keeps each room in one file of a
 * shared directory, so that several JVMs on one machine (or on a file system with working locks)
 * share one room, with no dependency at all. It passes the transport compatibility kit ({@code
 * waitingroom-tck}), which is how you check yours:
 *
 * <pre>{@code
 * class MyTransportTest extends TransportCompatibilityKit {
 *   protected Transport transport() { return new MyTransport(...); }
 * }
 * }</pre>
 *
 * <p>One exchange locks the room's file, reads every entry, drops the expired ones, stores the
 * publications, writes the file back and answers with the live entries of the named scopes and
 * the store's time, which every answer must carry ({@link Transport#CLOCK_SCOPE}): nodes keep the
 * room's time by it. This store's time is the clock it is given, read under the lock, by which it
 * expires entries too: the machine's clock, which all JVMs on one machine share (nodes on several
 * machines would each bring their own, which must then agree; a transport over a server uses the
 * server's clock, as the Redis one uses {@code TIME}). File format: a version int, then entries of
 * (scope, publisher, expiry in epoch millis, payload).
 */
public final class FileTransport implements Transport {
  private static final int FORMAT = 1;
  /** FileChannel locks are per process: threads of one JVM take this lock first. */
  private static final Map<Path, Object> JVM_LOCKS = new ConcurrentHashMap<>();

  private final Path directory;
  private final InstantSource clock;

  private record Entry(String scope, String publisher, long expiresAt, byte[] payload) {}

  /** A transport over files in {@code directory}, on the system clock. */
  public FileTransport(Path directory) {
    this(directory, InstantSource.system());
  }

  /** A transport over files in {@code directory}, expiring by {@code clock} and telling its time. */
  public FileTransport(Path directory, InstantSource clock) {
    this.directory = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  @SuppressWarnings("try") // the file lock is held for the block, never read
  public Map<String, Map<String, byte[]>> exchange(
      String roomId, List<Publication> publications, Duration retention) throws IOException {
    Map<String, Map<String, byte[]>> answer = new HashMap<>();
    if (publications.isEmpty()) {
      return answer;
    }
    Files.createDirectories(directory);
    Path file = directory.resolve(roomId + ".room");
    synchronized (JVM_LOCKS.computeIfAbsent(file, f -> new Object())) {
      try (FileChannel channel =
              FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        long now = clock.millis();
        List<Entry> entries = new ArrayList<>();
        for (Entry e : read(channel)) {
          if (e.expiresAt() > now) {
            entries.add(e);
          }
        }
        for (Publication p : publications) {
          entries.removeIf(e -> e.scope().equals(p.scope()) && e.publisher().equals(p.publisher()));
          entries.add(new Entry(p.scope(), p.publisher(), now + retention.toMillis(), p.payload().clone()));
        }
        write(channel, entries);
        for (Publication p : publications) {
          answer.put(p.scope(), new HashMap<>());
        }
        for (Entry e : entries) {
          Map<String, byte[]> scope = answer.get(e.scope());
          if (scope != null) {
            scope.put(e.publisher(), e.payload().clone());
          }
        }
        answer.put(CLOCK_SCOPE, Map.of("now", ByteBuffer.allocate(8).putLong(now).array()));
      }
    }
    return answer;
  }

  private static List<Entry> read(FileChannel channel) throws IOException {
    List<Entry> entries = new ArrayList<>();
    long size = channel.size();
    if (size == 0) {
      return entries;
    }
    ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(size));
    channel.position(0);
    while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
      // read it all
    }
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(buffer.array()));
    int format = in.readInt();
    if (format != FORMAT) {
      throw new IOException("room file format " + format + " is not supported (this release reads " + FORMAT + ")");
    }
    int count = in.readInt();
    for (int i = 0; i < count; i++) {
      String scope = in.readUTF();
      String publisher = in.readUTF();
      long expiresAt = in.readLong();
      byte[] payload = new byte[in.readInt()];
      in.readFully(payload);
      entries.add(new Entry(scope, publisher, expiresAt, payload));
    }
    return entries;
  }

  private static void write(FileChannel channel, List<Entry> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(FORMAT);
    out.writeInt(entries.size());
    for (Entry e : entries) {
      out.writeUTF(e.scope());
      out.writeUTF(e.publisher());
      out.writeLong(e.expiresAt());
      out.writeInt(e.payload().length);
      out.write(e.payload());
    }
    out.flush();
    ByteBuffer buffer = ByteBuffer.wrap(bytes.toByteArray());
    channel.truncate(0);
    channel.position(0);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
    channel.force(false);
  }
}
