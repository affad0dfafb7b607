package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.FailurePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

/**
 * The {@code waitingroom.*} properties: one room, the paths it guards, its cookie, its ticket
 * keyset and its store. The limits ({@code total-active-users}, {@code new-users-per-minute},
 * {@code session-duration}) and a keyset are required while the room is enabled; everything else
 * has a default. A wrong value stops the application at startup with a message that names the
 * property.
 */
@ConfigurationProperties(prefix = "waitingroom")
public class WaitingRoomProperties {

  /** Whether the waiting room guards the application. Set to false to switch it off (tests, local runs). */
  private boolean enabled = true;

  /**
   * The room's id: names its store keys and its ticket cookie. 1 to 64 characters out of A-Z a-z
   * 0-9 . _ -; every node of one room uses the same id.
   */
  private String roomId = "default";

  /** How many users may be active (admitted, session not expired) at once, room-wide. Required. */
  private @Nullable Integer totalActiveUsers;

  /** How many new users the room admits per minute at most, room-wide. Required. */
  private @Nullable Integer newUsersPerMinute;

  /** How long an admitted user stays active after their last request. Required. Whole seconds. */
  private @Nullable Duration sessionDuration;

  /** The width of an arrival bucket (users arriving within one bucket share a place in line). Default: 1 minute. */
  private @Nullable Duration bucketWidth;

  /** The width of a counting slice: how often an active user's check-in moves forward. Default: 10 seconds. */
  private @Nullable Duration sliceWidth;

  /** How often the waiting page reloads itself. Default: 20 seconds. */
  private @Nullable Duration refreshInterval;

  /** How long a waiting user keeps their place without reloading. Default: the core's default. */
  private @Nullable Duration waitingTimeout;

  /** This node's id, unique within its data center. Default: the core's default. */
  private @Nullable String nodeId;

  /** This node's data center (region, cluster). Default: the core's default. */
  private @Nullable String dataCenter;

  /** What the room does with new arrivals while its store cannot be reached. */
  private FailurePolicy failurePolicy = FailurePolicy.FAIL_CLOSED;

  /**
   * The length of an epoch, the same on every node (40 ms to 1 minute): a node syncs four times
   * per epoch. Keep it at least four times the propagation lag between data centers. Default: 1
   * second.
   */
  private @Nullable Duration syncInterval;

  /**
   * The most requests one active ticket may make on a node per second, on average over 10 s,
   * before it is refused for the rest of the window (a cookie shared by many clients); 0 turns
   * the check off. Default: the core's default (50).
   */
  private @Nullable Integer maxRequestsPerTicket;

  /** The path (within the application) the room guards, with everything below it. */
  private String pathPrefix = "/";

  /**
   * More paths that pass without a ticket: a path ({@code /api/public}) covers itself and
   * everything below it; {@code *.pdf} covers an extension. Added to the defaults of {@code
   * ignore-spring-resources}.
   */
  private List<String> ignorePaths = new ArrayList<>();

  /**
   * Whether Spring's static resources (the files under spring.web.resources.static-locations,
   * HTML pages excepted), webjars, /favicon.ico and the Actuator base path pass without a ticket,
   * so that fetching an asset never counts as a visitor and a waiting user's page still gets its
   * CSS and images.
   */
  private boolean ignoreSpringResources = true;

  /** The HTTP status of waiting responses: 200, 202 or 429 (with Retry-After). */
  private int waitingStatus = 200;

  /** The query flag that asks for the JSON status only (what the waiting page polls). */
  private String statusParam = "waitingRoomStatus";

  /** A custom waiting page (HTML with {{variables}}; see WaitingRoomFilter.Builder#template). */
  private @Nullable Resource pageTemplate;

  /**
   * The filter's order among servlet filters. The default, -99, runs the room right after Spring
   * Security (-100), so bypass predicates can ask for the user's roles and requests that Security
   * rejects never count as visitors. Use -101 to run it before Spring Security.
   */
  private int filterOrder = -99;

  /** The ticket cookie. */
  private final Cookie cookie = new Cookie();

  /** The keyset that seals tickets. Give exactly one source. */
  private final Keyset keyset = new Keyset();

  /** Where the room's nodes share their counts. */
  private final Store store = new Store();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public String getRoomId() {
    return roomId;
  }

  public void setRoomId(String roomId) {
    this.roomId = roomId;
  }

  public @Nullable Integer getTotalActiveUsers() {
    return totalActiveUsers;
  }

  public void setTotalActiveUsers(@Nullable Integer totalActiveUsers) {
    this.totalActiveUsers = totalActiveUsers;
  }

  public @Nullable Integer getNewUsersPerMinute() {
    return newUsersPerMinute;
  }

  public void setNewUsersPerMinute(@Nullable Integer newUsersPerMinute) {
    this.newUsersPerMinute = newUsersPerMinute;
  }

  public @Nullable Duration getSessionDuration() {
    return sessionDuration;
  }

  public void setSessionDuration(@Nullable Duration sessionDuration) {
    this.sessionDuration = sessionDuration;
  }

  public @Nullable Duration getBucketWidth() {
    return bucketWidth;
  }

  public void setBucketWidth(@Nullable Duration bucketWidth) {
    this.bucketWidth = bucketWidth;
  }

  public @Nullable Duration getSliceWidth() {
    return sliceWidth;
  }

  public void setSliceWidth(@Nullable Duration sliceWidth) {
    this.sliceWidth = sliceWidth;
  }

  public @Nullable Duration getRefreshInterval() {
    return refreshInterval;
  }

  public void setRefreshInterval(@Nullable Duration refreshInterval) {
    this.refreshInterval = refreshInterval;
  }

  public @Nullable Duration getWaitingTimeout() {
    return waitingTimeout;
  }

  public void setWaitingTimeout(@Nullable Duration waitingTimeout) {
    this.waitingTimeout = waitingTimeout;
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

  public String getPathPrefix() {
    return pathPrefix;
  }

  public void setPathPrefix(String pathPrefix) {
    this.pathPrefix = pathPrefix;
  }

  public List<String> getIgnorePaths() {
    return ignorePaths;
  }

  public void setIgnorePaths(List<String> ignorePaths) {
    this.ignorePaths = ignorePaths;
  }

  public boolean isIgnoreSpringResources() {
    return ignoreSpringResources;
  }

  public void setIgnoreSpringResources(boolean ignoreSpringResources) {
    this.ignoreSpringResources = ignoreSpringResources;
  }

  public int getWaitingStatus() {
    return waitingStatus;
  }

  public void setWaitingStatus(int waitingStatus) {
    this.waitingStatus = waitingStatus;
  }

  public String getStatusParam() {
    return statusParam;
  }

  public void setStatusParam(String statusParam) {
    this.statusParam = statusParam;
  }

  public @Nullable Resource getPageTemplate() {
    return pageTemplate;
  }

  public void setPageTemplate(@Nullable Resource pageTemplate) {
    this.pageTemplate = pageTemplate;
  }

  public int getFilterOrder() {
    return filterOrder;
  }

  public void setFilterOrder(int filterOrder) {
    this.filterOrder = filterOrder;
  }

  public Cookie getCookie() {
    return cookie;
  }

  public Keyset getKeyset() {
    return keyset;
  }

  public Store getStore() {
    return store;
  }

  /** When the ticket cookie carries the {@code Secure} attribute. */
  public enum CookieSecure {
    /** When the request came over HTTPS. */
    AUTO,
    /** Always. */
    ALWAYS,
    /** Never (plain-HTTP development only). */
    NEVER
  }

  /** The ticket cookie's {@code SameSite} attribute. */
  public enum SameSite {
    /** Sent on top-level navigation from other sites. */
    LAX,
    /** Never sent from other sites. */
    STRICT,
    /** Sent everywhere, for rooms embedded in other sites; implies Secure. */
    NONE
  }

  /** The {@code waitingroom.cookie.*} properties. */
  public static class Cookie {
    /** The ticket cookie's name. Default: wr_ followed by the room id. */
    private @Nullable String name;

    /** When the cookie is Secure: AUTO (when the request came over HTTPS), ALWAYS or NEVER. */
    private CookieSecure secure =
        CookieSecure.AUTO;

    /** The cookie's SameSite attribute: LAX, STRICT or NONE (NONE implies Secure). */
    private SameSite sameSite =
        SameSite.LAX;

    public @Nullable String getName() {
      return name;
    }

    public void setName(@Nullable String name) {
      this.name = name;
    }

    public CookieSecure getSecure() {
      return secure;
    }

    public void setSecure(CookieSecure secure) {
      this.secure = secure;
    }

    public SameSite getSameSite() {
      return sameSite;
    }

    public void setSameSite(SameSite sameSite) {
      this.sameSite = sameSite;
    }
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
     * Whether to generate a throw-away keyset at startup when no source is given. Tickets then
     * do not survive a restart and do not open on other nodes: for a single development node only.
     */
    private boolean generateEphemeral;

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

    public boolean isGenerateEphemeral() {
      return generateEphemeral;
    }

    public void setGenerateEphemeral(boolean generateEphemeral) {
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

    /** The prefix of the room's Redis keys. Default: waitingroom: */
    private @Nullable String keyPrefix;

    /** How long one Redis command may take before the sync counts as failed. Default: 1 second. */
    private @Nullable Duration commandTimeout;

    public @Nullable String getRedisUri() {
      return redisUri;
    }

    public void setRedisUri(@Nullable String redisUri) {
      this.redisUri = redisUri;
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
}
