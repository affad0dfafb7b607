package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.FailurePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

/**
 * The {@code waitingroom.*} properties: the main room (the settings of {@link RoomProperties},
 * directly under {@code waitingroom.}), further rooms under {@code waitingroom.rooms.<name>.*}, and
 * what all rooms of the application share: the ticket keyset, the store, this node's settings and
 * the filter's order. A room's limits ({@code total-active-users}, {@code new-users-per-minute},
 * {@code session-duration}) and a keyset are required while the waiting room is enabled; everything
 * else has a default. A wrong value stops the application at startup with a message that names the
 * property.
 *
 * <p>With {@code waitingroom.rooms} set, the main room exists only when one of its limits or its
 * {@code room-id} is set too. A request belongs to the room whose {@code path-prefix} is the most
 * specific one that covers it, and to no other.
 */
@ConfigurationProperties(prefix = "waitingroom")
public class WaitingRoomProperties extends RoomProperties {

  /** Whether the waiting room guards the application. Set to false to switch it off (tests, local runs). */
  private boolean enabled = true;

  /**
   * This node's id, unique within its data center: set it on every node of a room that several
   * nodes share (the pod or host name). Default: node.
   */
  private @Nullable String nodeId;

  /** This node's data center (region, cluster). Default: local. */
  private @Nullable String dataCenter;

  /**
   * What the room does with new arrivals while its store cannot be reached: fail-closed (queue
   * them; the admitted keep their sessions) or fail-open (let them in).
   */
  private FailurePolicy failurePolicy = FailurePolicy.FAIL_CLOSED;

  /**
   * The length of an epoch, the same on every node (40 ms to 1 minute): a node syncs four times
   * per epoch. Keep it at least one and a half times the propagation lag between data centers. Default: 1
   * second.
   */
  private @Nullable Duration syncInterval;

  /**
   * The most requests one active ticket may make on a node per second, on average over 10 s,
   * before it is refused for the rest of the window (a cookie shared by many clients); 0 turns
   * the check off. Default: 50.
   */
  private @Nullable Integer maxRequestsPerTicket;

  /**
   * How many reports (node reports and data center sums) the whole room may read from the store per second, the same on every node;
   * a room whose nodes would read more stretches its epochs for every node at once. Default: 20000.
   */
  private @Nullable Long storeBudget;

  /**
   * Whether Spring's static resources (the files under spring.web.resources.static-locations,
   * HTML pages excepted), webjars, /favicon.ico and the Actuator base path pass without a ticket,
   * so that fetching an asset never counts as a visitor and a waiting user's page still gets its
   * CSS and images.
   */
  private boolean ignoreSpringResources = true;

  /**
   * The filter's order among servlet filters, or among WebFilters in a reactive application. The
   * default, -99, runs the room right after Spring Security (-100), so bypass predicates can ask
   * for the user's roles and requests that Security rejects never count as visitors. Use -101 to
   * run it before Spring Security.
   */
  private int filterOrder = -99;

  /** The keyset that seals tickets. Give exactly one source. */
  private final Keyset keyset = new Keyset();

  /** Where the room's nodes share their counts. */
  private final Store store = new Store();

  /** The operator dashboard and live-settings API of every room: on once a bearer token or a role is set. */
  private final Dashboard dashboard = new Dashboard();

  /**
   * More rooms, by name, each with the settings of the main room (waitingroom.rooms.drop.path-prefix,
   * .total-active-users, ...) and its own path prefix and cookie name.
   */
  private Map<String, RoomProperties> rooms = new LinkedHashMap<>();

  /** Creates the properties with the defaults; Spring's binder calls it. */
  public WaitingRoomProperties() {}

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public @Nullable String getNodeId() {
    return nodeId;
  }

  public void setNodeId(@Nullable String nodeId) {
    this.nodeId = nodeId;
  }

  public @Nullable String getDataCenter() {
    return dataCenter;
  }

  public void setDataCenter(@Nullable String dataCenter) {
    this.dataCenter = dataCenter;
  }

  public FailurePolicy getFailurePolicy() {
    return failurePolicy;
  }

  public void setFailurePolicy(FailurePolicy failurePolicy) {
    this.failurePolicy = failurePolicy;
  }

  public @Nullable Duration getSyncInterval() {
    return syncInterval;
  }

  public void setSyncInterval(@Nullable Duration syncInterval) {
    this.syncInterval = syncInterval;
  }

  public @Nullable Integer getMaxRequestsPerTicket() {
    return maxRequestsPerTicket;
  }

  public void setMaxRequestsPerTicket(@Nullable Integer maxRequestsPerTicket) {
    this.maxRequestsPerTicket = maxRequestsPerTicket;
  }

  public @Nullable Long getStoreBudget() {
    return storeBudget;
  }

  public void setStoreBudget(@Nullable Long storeBudget) {
    this.storeBudget = storeBudget;
  }

  public boolean isIgnoreSpringResources() {
    return ignoreSpringResources;
  }

  public void setIgnoreSpringResources(boolean ignoreSpringResources) {
    this.ignoreSpringResources = ignoreSpringResources;
  }

  public int getFilterOrder() {
    return filterOrder;
  }

  public void setFilterOrder(int filterOrder) {
    this.filterOrder = filterOrder;
  }

  public Keyset getKeyset() {
    return keyset;
  }

  public Dashboard getDashboard() {
    return dashboard;
  }

  public Store getStore() {
    return store;
  }

  public Map<String, RoomProperties> getRooms() {
    return rooms;
  }

  public void setRooms(Map<String, RoomProperties> rooms) {
    this.rooms = rooms;
  }


  /**
   * The {@code waitingroom.keyset.*} properties: where the Tink JSON keyset that seals tickets
   * comes from. Every node of a room needs the same keyset. Generate one with {@code
   * io.github.waitingroom.servlet.GenerateKeyset}.
   */
  public static class Keyset {
    /** The name of an environment variable that holds the keyset JSON, for example WAITINGROOM_KEYSET. */
    private @Nullable String env;

    /** The path of a file that holds the keyset JSON. */
    private @Nullable Path file;

    /** A Spring resource that holds the keyset JSON, for example classpath:keyset.json or file:/run/secrets/keyset. */
    private @Nullable Resource resource;

    /**
     * Whether to generate a throw-away keyset at startup when no source gives one (none is set, or
     * the variable, file or resource it names is absent). Tickets then do not survive a restart and
     * do not open on other nodes. Unset: yes with the in-memory store (one JVM), with a warning in
     * the log; no with a store shared by several nodes (Redis), where startup then stops.
     */
    private @Nullable Boolean generateEphemeral;

    public @Nullable String getEnv() {
      return env;
    }

    public void setEnv(@Nullable String env) {
      this.env = env;
    }

    public @Nullable Path getFile() {
      return file;
    }

    public void setFile(@Nullable Path file) {
      this.file = file;
    }

    public @Nullable Resource getResource() {
      return resource;
    }

    public void setResource(@Nullable Resource resource) {
      this.resource = resource;
    }

    public @Nullable Boolean getGenerateEphemeral() {
      return generateEphemeral;
    }

    public void setGenerateEphemeral(@Nullable Boolean generateEphemeral) {
      this.generateEphemeral = generateEphemeral;
    }
  }

  /** The {@code waitingroom.store.*} properties. */
  public static class Store {
    /**
     * The Redis that the room's nodes share, as a redis:// or rediss:// URI (Lettuce syntax, also
     * redis-sentinel://). Needs io.github.waitingroom:waitingroom-redis on the classpath. Unset:
     * the application's own Redis (see application-redis), or else this JVM's memory, right for a
     * single node.
     */
    private @Nullable String redisUri;

    /**
     * Whether the room keeps its counts in the application's own Redis when redis-uri is not set:
     * through the application's Lettuce RedisClient (or RedisClusterClient) bean, or else through
     * Spring Data Redis's LettuceConnectionFactory (spring.data.redis.*), on a connection of its
     * own. Needs io.github.waitingroom:waitingroom-redis on the classpath.
     */
    private boolean applicationRedis = true;

    /** The prefix of the room's Redis keys. Default: waitingroom: (with the colon). */
    private @Nullable String keyPrefix;

    /** How long one Redis command may take before the sync counts as failed. Default: 1 second. */
    private @Nullable Duration commandTimeout;

    /**
     * Whether the room keeps its counts in the application's PostgreSQL when no Redis store
     * applies: through the application's single DataSource (its connection pool), in one table.
     * Needs io.github.waitingroom:waitingroom-postgres on the classpath.
     */
    private boolean applicationDataSource = true;

    /** The PostgreSQL store's table, as name or schema.name. Default: waitingroom_values. */
    private @Nullable String postgresTable;

    /**
     * Whether the application creates the PostgreSQL store's table itself (docs/postgres.md shows
     * the SQL): the room then only checks it. Default: false, the room creates it if absent.
     */
    private boolean postgresSchemaManaged;

    public @Nullable String getRedisUri() {
      return redisUri;
    }

    public void setRedisUri(@Nullable String redisUri) {
      this.redisUri = redisUri;
    }

    public boolean isApplicationDataSource() {
      return applicationDataSource;
    }

    public void setApplicationDataSource(boolean applicationDataSource) {
      this.applicationDataSource = applicationDataSource;
    }

    public @Nullable String getPostgresTable() {
      return postgresTable;
    }

    public void setPostgresTable(@Nullable String postgresTable) {
      this.postgresTable = postgresTable;
    }

    public boolean isPostgresSchemaManaged() {
      return postgresSchemaManaged;
    }

    public void setPostgresSchemaManaged(boolean postgresSchemaManaged) {
      this.postgresSchemaManaged = postgresSchemaManaged;
    }

    public boolean isApplicationRedis() {
      return applicationRedis;
    }

    public void setApplicationRedis(boolean applicationRedis) {
      this.applicationRedis = applicationRedis;
    }

    public @Nullable String getKeyPrefix() {
      return keyPrefix;
    }

    public void setKeyPrefix(@Nullable String keyPrefix) {
      this.keyPrefix = keyPrefix;
    }

    public @Nullable Duration getCommandTimeout() {
      return commandTimeout;
    }

    public void setCommandTimeout(@Nullable Duration commandTimeout) {
      this.commandTimeout = commandTimeout;
    }
  }

  /** The {@code dashboard.*} properties: the operator API of every room ({@code OperatorApi}). */
  public static class Dashboard {
    /** Where the dashboard answers, within the application: the page at PATH/, its data at PATH/data. */
    private String path = "/waitingroom/dashboard";

    /**
     * The bearer token the dashboard asks for (16 characters or more; keep it out of the repository:
     * an environment variable). Set it, or require-role, to turn the dashboard on.
     */
    private @Nullable String bearerToken;

    /**
     * Instead of a token, the role that the application's own security (Spring Security) must give
     * the user; servlet applications only.
     */
    private @Nullable String requireRole;

    /** Whether a PUT to PATH/settings may change the rooms' live settings on every node. */
    private boolean settingsChanges;

    public String getPath() {
      return path;
    }

    public void setPath(String path) {
      this.path = path;
    }

    public @Nullable String getBearerToken() {
      return bearerToken;
    }

    public void setBearerToken(@Nullable String bearerToken) {
      this.bearerToken = bearerToken;
    }

    public @Nullable String getRequireRole() {
      return requireRole;
    }

    public void setRequireRole(@Nullable String requireRole) {
      this.requireRole = requireRole;
    }

    public boolean isSettingsChanges() {
      return settingsChanges;
    }

    public void setSettingsChanges(boolean settingsChanges) {
      this.settingsChanges = settingsChanges;
    }

    /** Whether the dashboard is on: a token or a role is set. */
    boolean on() {
      return (bearerToken != null && !bearerToken.isBlank()) || (requireRole != null && !requireRole.isBlank());
    }
  }
}
