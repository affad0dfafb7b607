package io.github.waitingroom.simulation;

import java.util.Arrays;

/**
 * The events of a run in virtual time: each is an instant (milliseconds) and an id (a client, a
 * node's sync, anything the run numbers), and {@link #poll()} hands them out earliest first, ties
 * by the smaller id. An event is packed into one {@code long} ({@code time << ID_BITS | id}) and
 * kept in a binary min-heap without boxing, so a run of a million clients stays cheap.
 *
 * <p>Times are relative to an {@code origin} given at construction, which may be negative (a run
 * that warms its room up before its time 0 schedules events before it); an event's time minus the
 * origin must fit in 39 bits (about 17 years of milliseconds).
 */
public final class EventQueue {
  /** The bits of an event that hold its id. */
  public static final int ID_BITS = 24;
  /** The largest id an event can carry. */
  public static final int MAX_ID = (1 << ID_BITS) - 1;

  private final long origin;
  private long[] heap = new long[1024];
  private int size;
  private long lastPolled;

  /** An empty queue whose times start at 0. */
  public EventQueue() {
    this(0);
  }

  /** An empty queue that accepts times from {@code origin} on (a negative origin for a warm-up). */
  public EventQueue(long origin) {
    this.origin = origin;
  }

  /** Adds the event {@code id} at {@code atMillis}. */
  public void schedule(long atMillis, int id) {
    if (id < 0 || id > MAX_ID) {
      throw new IllegalArgumentException("id must be in 0.." + MAX_ID + " but was " + id);
    }
    if (atMillis < origin) {
      throw new IllegalArgumentException("atMillis must be >= " + origin + " but was " + atMillis);
    }
    add((atMillis - origin) << ID_BITS | id);
  }

  /** Whether no event is left. */
  public boolean isEmpty() {
    return size == 0;
  }

  /** The number of events left. */
  public int size() {
    return size;
  }

  /** The time of the earliest event; only when not {@link #isEmpty()}. */
  public long peekTime() {
    if (size == 0) {
      throw new IllegalStateException("no event left");
    }
    return (heap[0] >>> ID_BITS) + origin;
  }

  /**
   * Takes the earliest event and returns its id; its time is then {@link #time()}.
   *
   * @throws IllegalStateException when no event is left
   */
  public int poll() {
    if (size == 0) {
      throw new IllegalStateException("no event left");
    }
    lastPolled = heap[0];
    long last = heap[--size];
    int i = 0;
    int half = size >>> 1;
    while (i < half) {
      int child = 2 * i + 1;
      if (child + 1 < size && heap[child + 1] < heap[child]) {
        child++;
      }
      if (last <= heap[child]) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    if (size > 0) {
      heap[i] = last;
    }
    return (int) (lastPolled & MAX_ID);
  }

  /** The time of the event the last {@link #poll()} took. */
  public long time() {
    return (lastPolled >>> ID_BITS) + origin;
  }

  private void add(long v) {
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (heap[parent] <= v) {
        break;
      }
      heap[i] = heap[parent];
      i = parent;
    }
    heap[i] = v;
  }
}
