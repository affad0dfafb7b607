package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.github.waitingroom.http.AdaptiveLimitSettings;
import io.github.waitingroom.http.GateSettings;
import io.github.waitingroom.http.Setting;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.DurationStyle;

/**
 * The gate's Spring Boot properties against their declarations ({@link GateSettings}): every
 * declared setting with a property is a property of {@link RoomProperties}, with the declared
 * default both in the class and in the IDE metadata, and the declared description in the metadata.
 * The descriptions and defaults reach the metadata through {@code
 * additional-spring-configuration-metadata.json}; a failure here shows the declared text to copy there.
 */
class GateSettingsMetadataTest {
  private static final Map<String, JsonNode> properties = new LinkedHashMap<>();

  @BeforeAll
  static void read() throws Exception {
    for (URL url : Collections.list(
        GateSettingsMetadataTest.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
      try (InputStream in = url.openStream()) {
        for (JsonNode p : new ObjectMapper().readTree(in).path("properties")) {
          properties.put(p.path("name").asText(), p);
        }
      }
    }
  }

  @Test
  void everyDeclaredSettingIsAPropertyWithTheDeclaredDescriptionAndDefault() {
    for (Setting<?> s : GateSettings.all()) {
      String property = s.property();
      if (property == null) {
        continue; // bound from several properties at once (human-check.*)
      }
      JsonNode p = properties.getOrDefault("waitingroom." + property, com.fasterxml.jackson.databind.node.MissingNode.getInstance());
      assertThat(p.isMissingNode()).as("metadata of waitingroom." + property + " is missing").isFalse();
      assertThat(p.path("description").asText()).as(property).isEqualTo(s.description());
      JsonNode expected = metadataDefault(s.defaultValue());
      if (expected == null) {
        assertThat(p.has("defaultValue")).as(property + " has no default").isFalse();
      } else if (s.type() == Duration.class) {
        assertThat(DurationStyle.detectAndParse(p.path("defaultValue").asText())).as(property).isEqualTo(s.defaultValue());
      } else {
        assertThat(p.path("defaultValue")).as(property).isEqualTo(expected);
      }
    }
  }

  @Test
  void theDefaultsOfRoomPropertiesAreTheDeclaredOnes() {
    BeanWrapperImpl fresh = new BeanWrapperImpl(new RoomProperties());
    for (Setting<?> s : GateSettings.all()) {
      String property = s.property();
      if (property != null) {
        Object value = fresh.getPropertyValue(beanPath(property));
        assertThat(value).as(property).isEqualTo(s.defaultValue());
      }
    }
  }

  @Test
  void everyPropertyOfRoomPropertiesIsDeclaredOrARoomSetting() {
    List<String> room =
        List.of("room-id", "total-active-users", "new-users-per-minute", "session-duration", "bucket-width",
            "slice-width", "refresh-interval", "waiting-timeout");
    for (String name : properties.keySet()) {
      if (!name.startsWith("waitingroom.")) {
        continue;
      }
      String relative = name.substring("waitingroom.".length());
      boolean inRoom = new BeanWrapperImpl(new RoomProperties()).isReadableProperty(beanPath(relative));
      if (inRoom && !relative.startsWith("human-check.") && !room.contains(relative)) {
        // The adaptive limit's are room settings declared in AdaptiveLimitSettings (AdaptiveLimitPropertiesTest).
        assertThat(GateSettings.all().stream().anyMatch(s -> relative.equals(s.property()))
                || AdaptiveLimitSettings.all().stream().anyMatch(s -> relative.equals(s.property())))
            .as("a declaration in GateSettings (or AdaptiveLimitSettings) for " + name)
            .isTrue();
      }
    }
  }

  private static @Nullable JsonNode metadataDefault(@Nullable Object value) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (value == null) {
      return null;
    }
    if (value instanceof Integer i) {
      return f.numberNode(i);
    }
    if (value instanceof Boolean b) {
      return f.booleanNode(b);
    }
    if (value instanceof Enum<?> e) {
      return f.textNode(e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
    if (value instanceof Duration d) {
      return f.textNode(d.toSeconds() % 60 == 0 ? d.toMinutes() + "m" : d.toSeconds() + "s");
    }
    if (value instanceof List<?> l) {
      ArrayNode a = f.arrayNode();
      l.forEach(v -> a.add(String.valueOf(v)));
      return a;
    }
    return f.textNode(String.valueOf(value));
  }

  private static String beanPath(String property) {
    return Gates.beanPath(property);
  }
}
