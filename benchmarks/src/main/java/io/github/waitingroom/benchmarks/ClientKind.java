package io.github.waitingroom.benchmarks;

/**
 * How a simulated waiting user polls. Every kind presents the cookies it holds; the room decides
 * whether a place is still valid.
 */
public enum ClientKind {
  /** A page in front of its user: polls as each answer tells it ({@code Decision.refreshSeconds()}). */
  PAGE("page"),
  /**
   * A hidden browser tab: polls once a minute whatever it is told (Chrome runs a hidden tab's
   * timers once a minute).
   */
  HIDDEN("hidden"),
  /**
   * A tab that is frozen once (a phone that switched apps, a laptop lid): polls as told, but
   * once, at a uniform time in its first {@link #FREEZE_START_MAX_MINUTES} minutes of waiting,
   * goes silent for a uniform {@link #FREEZE_MIN_MINUTES}-{@link #FREEZE_MAX_MINUTES} minutes,
   * then comes back with the same cookies (even when their Max-Age has passed) and polls as told.
   */
  FROZEN("frozen"),
  /**
   * An API or app client on a timer: polls every N s, N uniform in {@link #API_MIN_SECONDS}-{@link
   * #API_MAX_SECONDS} and fixed per client, whatever it is told.
   */
  API("api"),
  /**
   * A page that polls as told and gives up after an exponential patience (the scenario's {@code
   * patienceMean}): the only kind that leaves the line by itself.
   */
  LEAVER("leaver");

  /** How often a hidden tab polls, in seconds. */
  public static final int HIDDEN_SECONDS = 60;
  /** A frozen tab's silence starts within this many minutes of its arrival. */
  public static final int FREEZE_START_MAX_MINUTES = 3;
  /** The shortest silence of a frozen tab. */
  public static final int FREEZE_MIN_MINUTES = 1;
  /** The longest silence of a frozen tab. */
  public static final int FREEZE_MAX_MINUTES = 10;
  /** The shortest period of an API client. */
  public static final int API_MIN_SECONDS = 10;
  /** The longest period of an API client. */
  public static final int API_MAX_SECONDS = 60;

  private final String label;

  ClientKind(String label) {
    this.label = label;
  }

  /** A short lower-case name, for reports. */
  public String label() {
    return label;
  }
}
