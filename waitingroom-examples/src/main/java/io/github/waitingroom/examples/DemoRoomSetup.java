package io.github.waitingroom.examples;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.RoomSettings;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.coordinator.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The parts of the demo's room that its flags choose beyond the limits: the ticket keyset of
 * {@code --keyset}, the coordinator transport of {@code --redis}, and the sale of {@code
 * --event-in}. {@link DemoServer} builds the room with them.
 */
final class DemoRoomSetup {
  private DemoRoomSetup() {}

  /** Loads the keyset file, creates it when missing, or (without the flag) generates a throw-away one. */
  static KeysetHandle keyset(@Nullable String file, PrintStream out) throws IOException {
    if (file == null) {
      out.println(
          "WARNING: no --keyset given, so this node uses an EPHEMERAL ticket keyset: tickets die with"
              + " this process and no other node can open them. For several nodes, give them all the"
              + " same --keyset FILE.");
      return TicketKeys.generate();
    }
    Path path = Path.of(file);
    if (Files.exists(path)) {
      return TicketKeys.fromJson(Files.readString(path, StandardCharsets.UTF_8));
    }
    KeysetHandle keys = TicketKeys.generate();
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(path, TicketKeys.toJson(keys), StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: keep the default permissions
    }
    out.println(
        "Wrote a new ticket keyset to " + path + " (a secret: keep it private). Start the room's other"
            + " nodes with --keyset " + path + ".");
    return keys;
  }

  /**
   * The coordinator transport the flags ask for, or {@code null} for the room's own in-memory
   * transport (one JVM). Other transports plug in here, each behind its own flag.
   */
  static @Nullable Transport transport(DemoServer.Cli flags) {
    String redis = flags.redis;
    return redis == null ? null : io.github.waitingroom.redis.RedisTransport.create(redis);
  }

  /**
   * With {@code --event-in}: schedules the event "sale", whose pre-queue opens now and which
   * starts that many seconds later (a lottery with {@code --lottery true}), on every node of the room.
   */
  static void scheduleEvent(DemoServer.Cli flags, WaitingRoom room, PrintStream out) {
    Integer in = flags.eventIn;
    boolean lottery = flags.lottery;
    if (in == null) {
      if (lottery) {
        throw new IllegalArgumentException("--lottery true needs --event-in: the lottery draws the places of an event's pre-queue");
      }
      return;
    }
    int seconds = in;
    int length = flags.eventLength;
    if (seconds < 1 || length < 1) {
      throw new IllegalArgumentException("--event-in and --event-length are positive numbers of seconds");
    }
    Instant now = Instant.ofEpochSecond(room.nowSecond());
    Instant start = now.plusSeconds(seconds);
    RoomSettings next = RoomSettings.fromJson(
        "{\"events\": [{\"name\": \"sale\", \"prequeueStart\": \"" + now + "\", \"start\": \"" + start
            + "\", \"end\": \"" + start.plusSeconds(length) + "\", \"shuffleAtEventStart\": " + lottery + "}]}",
        room.latestSettings());
    room.updateSettings(next);
    out.println("  Event 'sale': the pre-queue is open, the sale starts at " + start + " (in " + seconds + " s)"
        + (lottery ? "; places are drawn by lottery at the start" : ""));
    out.println();
    out.flush();
  }
}
