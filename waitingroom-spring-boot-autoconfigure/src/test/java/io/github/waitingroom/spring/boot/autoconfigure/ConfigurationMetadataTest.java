package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.waitingroom.RoomConfig;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.redis.RedisTransport;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;

/**
 * The IDE metadata this module ships ({@code META-INF/spring-configuration-metadata.json}, as the
 * configuration processor wrote it from the properties classes and {@code
 * additional-spring-configuration-metadata.json}): plain-text descriptions, a real default for
 * every property that has one (equal to the core's own constant where the core publishes one), and
 * value hints for the enumerations, the status codes, the languages and the durations.
 */
class ConfigurationMetadataTest {
  /** Properties that have no default: required, or unset means "none" or "derived from another". */
  private static final Set<String> NO_DEFAULT =
      Set.of(
          "waitingroom.total-active-users",
          "waitingroom.new-users-per-minute",
          "waitingroom.session-duration",
          "waitingroom.adaptive-limit.min",
          "waitingroom.adaptive-limit.max",
          "waitingroom.adaptive-limit.latency",
          "waitingroom.keyset.env",
          "waitingroom.keyset.file",
          "waitingroom.keyset.resource",
          "waitingroom.keyset.generate-ephemeral",
          "waitingroom.store.redis-uri",
          "waitingroom.cookie.name",
          "waitingroom.language",
          "waitingroom.messages-directory",
          "waitingroom.page-template",
          "waitingroom.human-check.site-key",
          "waitingroom.human-check.secret-key",
          "waitingroom.human-check.verify-url",
          "waitingroom.dashboard.bearer-token",
          "waitingroom.dashboard.require-role",
          "waitingroom.rooms");

  private static final Map<String, JsonNode> properties = new LinkedHashMap<>();
  private static final Map<String, JsonNode> hints = new LinkedHashMap<>();

  @BeforeAll
  static void read() throws Exception {
    for (URL url : Collections.list(
        ConfigurationMetadataTest.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
      JsonNode root;
      try (InputStream in = url.openStream()) {
        root = new ObjectMapper().readTree(in);
      }
      for (JsonNode p : root.path("properties")) {
        if (p.path("sourceType").asText().startsWith("io.github.waitingroom.")
            || p.path("name").asText().startsWith("waitingroom.")
            || p.path("name").asText().equals("management.health.waitingroom.enabled")) {
          properties.put(p.path("name").asText(), p);
        }
      }
      for (JsonNode h : root.path("hints")) {
        if (h.path("name").asText().startsWith("waitingroom.")) {
          hints.put(h.path("name").asText(), h);
        }
      }
    }
    assertThat(properties).containsKeys("waitingroom.total-active-users", "management.health.waitingroom.enabled");
  }

  @Test
  void descriptionsArePlainText() {
    for (JsonNode p : properties.values()) {
      String d = p.path("description").asText();
      assertThat(d).as(p.path("name").asText()).isNotBlank();
      assertThat(d)
          .as(p.path("name").asText())
          .doesNotContain("{@", "<p>", "</", "<code>", "<pre>", "@see", "@link", "the core's default");
    }
  }

  @Test
  void everyPropertyThatHasADefaultDeclaresIt() {
    Set<String> missing = new TreeSet<>();
    for (Map.Entry<String, JsonNode> e : properties.entrySet()) {
      if (e.getKey().startsWith("waitingroom.") && !NO_DEFAULT.contains(e.getKey()) && !e.getValue().has("defaultValue")) {
        missing.add(e.getKey());
      }
    }
    assertThat(missing).as("waitingroom.* properties without a defaultValue").isEmpty();
    // None of the properties without a default claims one.
    for (String name : NO_DEFAULT) {
      JsonNode p = properties.get(name);
      if (p != null) {
        assertThat(p.has("defaultValue")).as(name).isFalse();
      }
    }
  }

  @Test
  void theDefaultsAreTheCoresOwn() {
    assertThat(duration("waitingroom.bucket-width")).isEqualTo(RoomConfig.DEFAULT_BUCKET_WIDTH);
    assertThat(duration("waitingroom.slice-width")).isEqualTo(RoomConfig.DEFAULT_SLICE_WIDTH);
    assertThat(duration("waitingroom.refresh-interval")).isEqualTo(RoomConfig.DEFAULT_REFRESH_INTERVAL);
    RoomConfig config =
        RoomConfig.builder("default").totalActiveUsers(1).newUsersPerMinute(1).sessionDuration(Duration.ofMinutes(1)).build();
    assertThat(duration("waitingroom.waiting-timeout")).isEqualTo(config.waitingTimeout());
    assertThat(property("waitingroom.store-budget").path("defaultValue").asLong())
        .isEqualTo(WaitingRoom.Builder.DEFAULT_STORE_BUDGET);
    assertThat(property("waitingroom.store.key-prefix").path("defaultValue").asText())
        .isEqualTo(RedisTransport.DEFAULT_KEY_PREFIX);
    assertThat(duration("waitingroom.store.command-timeout")).isEqualTo(RedisTransport.DEFAULT_COMMAND_TIMEOUT);
    try (WaitingRoom room = WaitingRoom.builder(config, TicketKeys.generate()).build()) {
      assertThat(property("waitingroom.node-id").path("defaultValue").asText()).isEqualTo(room.nodeId());
      assertThat(property("waitingroom.data-center").path("defaultValue").asText()).isEqualTo(room.dataCenter());
    }
  }

  @Test
  void enumerationsStatusCodesLanguagesAndDurationsHaveValueHints() {
    assertThat(hints)
        .containsKeys(
            "waitingroom.waiting-status",
            "waitingroom.reject-status",
            "waitingroom.failure-policy",
            "waitingroom.page-style",
            "waitingroom.cookie.secure",
            "waitingroom.cookie.same-site",
            "waitingroom.human-check.provider",
            "waitingroom.default-language",
            "waitingroom.language");
    for (Map.Entry<String, JsonNode> e : properties.entrySet()) {
      if (e.getKey().startsWith("waitingroom.") && e.getValue().path("type").asText().equals("java.time.Duration")) {
        assertThat(hints).as("a value hint for the duration " + e.getKey()).containsKey(e.getKey());
      }
    }
    for (JsonNode h : hints.values()) {
      assertThat(h.path("values")).as(h.path("name").asText()).isNotEmpty();
      for (JsonNode v : h.path("values")) {
        assertThat(v.path("description").asText()).as(h.path("name").asText()).isNotBlank();
        if (property(h.path("name").asText()).path("type").asText().equals("java.time.Duration")) {
          DurationStyle.detectAndParse(v.path("value").asText()); // a value Spring accepts
        }
      }
    }
  }

  private static JsonNode property(String name) {
    JsonNode p = properties.get(name);
    assertThat(p).as(name).isNotNull();
    return java.util.Objects.requireNonNull(p);
  }

  private static Duration duration(String name) {
    return DurationStyle.detectAndParse(property(name).path("defaultValue").asText());
  }
}
