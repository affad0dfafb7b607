package io.github.waitingroom.benchmarks;

/**
 * Which share of the arrivals is of which {@link ClientKind}; the shares sum to 1. Each arrival
 * draws its kind from the run's seed.
 *
 * @param page share of page clients (poll as told)
 * @param hidden share of hidden tabs (poll once a minute)
 * @param frozen share of tabs frozen once for 1-10 minutes
 * @param api share of fixed-pace API clients (every 10-60 s)
 * @param leaver share of pages that give up after an exponential patience
 */
public record ClientMix(double page, double hidden, double frozen, double api, double leaver) {
  /**
   * The mix of every scenario unless it says otherwise: 55 % page clients, 15 % hidden tabs,
   * 10 % frozen tabs, 10 % API clients, 10 % leavers.
   */
  public static final ClientMix DEFAULT = new ClientMix(0.55, 0.15, 0.10, 0.10, 0.10);

  /** Every user a page that polls as told and gives up after its patience: the simulator before client kinds. */
  public static final ClientMix LEAVERS_ONLY = new ClientMix(0, 0, 0, 0, 1);

  /** Checks the shares. */
  public ClientMix {
    double[] shares = {page, hidden, frozen, api, leaver};
    double sum = 0;
    for (double v : shares) {
      if (!(v >= 0 && v <= 1)) {
        throw new IllegalArgumentException("shares must be within [0, 1]: " + java.util.Arrays.toString(shares));
      }
      sum += v;
    }
    if (Math.abs(sum - 1) > 1e-9) {
      throw new IllegalArgumentException("shares must sum to 1 but sum to " + sum);
    }
  }

  /** The share of one kind. */
  public double share(ClientKind kind) {
    return switch (kind) {
      case PAGE -> page;
      case HIDDEN -> hidden;
      case FROZEN -> frozen;
      case API -> api;
      case LEAVER -> leaver;
    };
  }

  /** The kind at {@code u} (uniform in [0, 1)) of the cumulative shares, in {@link ClientKind} order. */
  public ClientKind pick(double u) {
    double acc = 0;
    ClientKind last = ClientKind.PAGE;
    for (ClientKind k : ClientKind.values()) {
      double share = share(k);
      if (share > 0) {
        last = k;
        acc += share;
        if (u < acc) {
          return k;
        }
      }
    }
    return last;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (ClientKind k : ClientKind.values()) {
      if (share(k) > 0) {
        b.append(b.length() == 0 ? "" : " ").append(Math.round(share(k) * 100)).append("% ").append(k.label());
      }
    }
    return b.toString();
  }
}
