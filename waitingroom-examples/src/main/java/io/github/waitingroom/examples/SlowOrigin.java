package io.github.waitingroom.examples;

import java.util.concurrent.Semaphore;

/**
 * The demo's slow shop of {@code --origin-servers N --origin-service-ms S}: every page is served
 * by one of N "servers" (a fair {@link Semaphore} of N permits), which spends S ms on it (a {@link
 * Thread#sleep} while holding its permit). Up to N requests at once answer in about S ms; more
 * queue in arrival order, so latency climbs past a knee of N requests at once, about {@code N *
 * 1000 / S} requests a second, as a real site's does: what the adaptive limit measures and
 * follows.
 */
final class SlowOrigin {
  private final Semaphore servers;
  private final int count;
  private final long serviceMillis;

  /**
   * @param servers how many requests are served at once, at least 1
   * @param serviceMillis how long each takes, in milliseconds, at least 1
   */
  SlowOrigin(int servers, long serviceMillis) {
    if (servers < 1 || serviceMillis < 1) {
      throw new IllegalArgumentException("--origin-servers and --origin-service-ms must be at least 1 but were "
          + servers + " and " + serviceMillis);
    }
    this.servers = new Semaphore(servers, true);
    this.count = servers;
    this.serviceMillis = serviceMillis;
  }

  /** Waits for a free server, then holds it for the service time. */
  void serve() throws InterruptedException {
    servers.acquire();
    try {
      Thread.sleep(serviceMillis);
    } finally {
      servers.release();
    }
  }

  /** How many servers. */
  int servers() {
    return count;
  }

  /** How long a server spends on a page, in milliseconds. */
  long serviceMillis() {
    return serviceMillis;
  }
}
