package io.github.waitingroom.coordinator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How the store's time is cut into epochs: a schedule of eras, each a run of epochs of one length.
 * Immutable. Epochs are numbered without a gap across eras, so that "the next epoch" is always
 * {@code e + 1}; the first era has the configured length (the sync interval) and starts at epoch 0
 * at time 0, so without a later era epoch {@code e} starts at {@code e} times that length, as it
 * always did.
 *
 * <p>A later era stretches (or shrinks back) the epochs of a room with many nodes, so that the
 * store's load stays within a budget however many nodes sync (see {@code
 * WaitingRoom.Builder#storeBudget}). Every node must cut time the same way, so an era is agreed
 * through the store: one node decides it from a settled plan, well before it begins, and every
 * node reads it there (see {@link Coordinator#schedule}). Lengths are the configured length times
 * a power of two, at most {@link #MAX_STRETCH}.
 */
public final class Epochs {

  /** The most an era may stretch the configured epoch length. */
  public static final int MAX_STRETCH = 64;

  /** How many eras a schedule keeps: the latest ones (older epochs are long settled). */
  static final int ERAS_KEPT = 3;

  /**
   * A run of epochs of one length.
   *
   * @param first the number of its first epoch
   * @param startMillis when its first epoch starts, in store time
   * @param lengthMillis the length of each of its epochs
   */
  public record Era(long first, long startMillis, long lengthMillis) {}

  private final long baseMillis;
  private final Era[] eras;

  private Epochs(long baseMillis, Era[] eras) {
    this.baseMillis = baseMillis;
    this.eras = eras;
  }

  /** Epochs of the configured length only. */
  public static Epochs of(Duration length) {
    long base = Math.max(1, length.toMillis());
    return new Epochs(base, new Era[] {new Era(0, 0, base)});
  }

  /** The configured length, in milliseconds. */
  public long baseMillis() {
    return baseMillis;
  }

  /** The epoch that {@code millis} (store time) falls in. */
  public long at(long millis) {
    Era era = eras[0];
    for (Era e : eras) {
      if (e.startMillis() <= millis) {
        era = e;
      }
    }
    return era.first() + Math.floorDiv(millis - era.startMillis(), era.lengthMillis());
  }

  /** When epoch {@code epoch} starts, in store time. */
  public long start(long epoch) {
    Era era = eraOf(epoch);
    return era.startMillis() + (epoch - era.first()) * era.lengthMillis();
  }

  /** How long epoch {@code epoch} lasts, in milliseconds. */
  public long length(long epoch) {
    return eraOf(epoch).lengthMillis();
  }

  /** The latest era: the one in force, or one that has not begun yet. */
  public Era latest() {
    return eras[eras.length - 1];
  }

  private Era eraOf(long epoch) {
    Era era = eras[0];
    for (Era e : eras) {
      if (e.first() <= epoch) {
        era = e;
      }
    }
    return era;
  }

  /**
   * This schedule with one more era, or {@code null} if it does not fit: it must begin after the
   * latest era begins, at the start of an epoch of this schedule, with the configured length times
   * a power of two of at most {@link #MAX_STRETCH}, and differ in length from the era it follows.
   */
  public @Nullable Epochs with(Era era) {
    Era last = latest();
    long stretch = era.lengthMillis() / baseMillis;
    if (era.first() <= last.first()
        || era.startMillis() != start(era.first())
        || era.lengthMillis() % baseMillis != 0
        || stretch < 1
        || stretch > MAX_STRETCH
        || Long.bitCount(stretch) != 1
        || era.lengthMillis() == last.lengthMillis()) {
      return null;
    }
    List<Era> next = new ArrayList<>(List.of(eras));
    next.add(era);
    while (next.size() > ERAS_KEPT) {
      next.remove(0);
    }
    return new Epochs(baseMillis, next.toArray(new Era[0]));
  }

  /**
   * A schedule that begins with {@code era}, whatever came before it: for a node that joins a
   * room whose earlier eras it never saw (it tallies nothing before it joins).
   */
  Epochs anchored(Era era) {
    return new Epochs(baseMillis, new Era[] {era});
  }

  /** The name of an era's document in the global scope: {@code ~epochs.<first>}. */
  static String documentName(Era era) {
    return NAME + era.first();
  }

  /** Where the names of era documents start. */
  static final String NAME = Coordinator.DOCUMENT + "epochs.";

  private static final String HEADER = "waitingroom-epochs 1 ";

  /** An era as the document that carries it. */
  static byte[] encode(Era era) {
    return (HEADER + era.first() + " " + era.startMillis() + " " + era.lengthMillis()).getBytes(StandardCharsets.US_ASCII);
  }

  /** The era a document carries, or {@code null} if it is not one this release reads. */
  static @Nullable Era decode(byte[] document) {
    String text = new String(document, StandardCharsets.US_ASCII);
    if (!text.startsWith(HEADER)) {
      return null;
    }
    String[] parts = text.substring(HEADER.length()).split(" ", -1);
    if (parts.length != 3) {
      return null;
    }
    try {
      long length = Long.parseLong(parts[2]);
      return length > 0 ? new Era(Long.parseLong(parts[0]), Long.parseLong(parts[1]), length) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "Epochs" + List.of(eras);
  }
}
