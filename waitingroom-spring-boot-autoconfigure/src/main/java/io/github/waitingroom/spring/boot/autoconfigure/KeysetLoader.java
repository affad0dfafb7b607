package io.github.waitingroom.spring.boot.autoconfigure;

import com.google.crypto.tink.KeysetHandle;
import io.github.waitingroom.TicketKeys;
import io.github.waitingroom.http.Keysets;
import io.github.waitingroom.http.SettingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.source.MutuallyExclusiveConfigurationPropertiesException;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;

/**
 * Where a room's ticket keyset comes from: its role is to read {@code waitingroom.keyset.*} (an
 * environment variable, a file or a resource, at most one of them) into a {@link KeysetHandle},
 * and to decide, when none is there, between a generated keyset and a startup failure. Every room
 * of the application gets its keyset here ({@link WaitingRoomAutoConfiguration}).
 */
final class KeysetLoader {
  // The auto-configuration's logger, as before this class was split from it: an application's
  // logging configuration that names it keeps the generated-keyset warning.
  private static final Logger log = LoggerFactory.getLogger(WaitingRoomAutoConfiguration.class);

  private KeysetLoader() {}

  /**
   * The room's ticket keyset from {@code waitingroom.keyset.*}. A source that is configured but
   * absent (an unset variable, a missing file or resource, as on a CI machine without the secret)
   * counts as no keyset; a source that is present but unreadable or not a keyset always stops
   * startup. Without a keyset, the rule of Spring Security's generated password: where it is safe
   * (this JVM alone, the in-memory store) the room runs on a generated keyset and says so at WARN;
   * with a store that other nodes share, startup stops naming the property to set, since every
   * node needs the same keyset. {@code generate-ephemeral} set to true or false overrides that.
   */
  static KeysetHandle load(
      WaitingRoomProperties.Keyset k, String roomId, boolean sharedStore, Environment environment) {
    MutuallyExclusiveConfigurationPropertiesException.throwIfMultipleNonNullValuesIn(
        entries -> {
          entries.put("waitingroom.keyset.env", k.getEnv());
          entries.put("waitingroom.keyset.file", k.getFile());
          entries.put("waitingroom.keyset.resource", k.getResource());
        });
    String property = "waitingroom.keyset";
    @Nullable Object value = null;
    String absent = "no keyset source is configured";
    String env = k.getEnv();
    Path file = k.getFile();
    Resource resource = k.getResource();
    if (env != null) {
      // The environment as Spring sees it: the process environment, or what a test puts there.
      String json = environment.getProperty(env);
      if (json == null || json.isBlank()) {
        json = System.getenv(env);
      }
      if (json != null && !json.isBlank()) {
        return parse("waitingroom.keyset.env", env, json);
      }
      property = "waitingroom.keyset.env";
      value = env;
      absent = "the environment variable " + env + " (waitingroom.keyset.env) is not set";
    } else if (file != null) {
      if (Files.exists(file)) {
        try {
          return parse("waitingroom.keyset.file", file, Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw PropertyChecks.invalid("waitingroom.keyset.file", file, "cannot be read: " + e);
        }
      }
      property = "waitingroom.keyset.file";
      value = file;
      absent = "the file " + file + " (waitingroom.keyset.file) does not exist";
    } else if (resource != null) {
      if (resource.exists()) {
        try {
          return parse(
              "waitingroom.keyset.resource",
              resource.getDescription(),
              resource.getContentAsString(StandardCharsets.UTF_8));
        } catch (IOException e) {
          throw PropertyChecks.invalid(
              "waitingroom.keyset.resource", resource.getDescription(), "cannot be read: " + e);
        }
      }
      property = "waitingroom.keyset.resource";
      value = resource.getDescription();
      absent = "the resource " + resource.getDescription() + " (waitingroom.keyset.resource) does not exist";
    }
    Boolean generate = k.getGenerateEphemeral();
    if (Boolean.TRUE.equals(generate) || (generate == null && !sharedStore)) {
      log.warn(
          "waiting room '{}': {}, so this JVM seals tickets with a GENERATED keyset. That is safe only for"
              + " one node with the in-memory store: tickets do not survive a restart and open on no other"
              + " node. This generated keyset is for development and tests only; in production set"
              + " waitingroom.keyset.env (or .file, .resource) to a keyset made with GenerateKeyset.",
          roomId,
          absent);
      return TicketKeys.generate();
    }
    String why =
        generate == null
            ? "the room's store is shared with other nodes, and every node needs the same ticket keyset, so none is"
                + " generated"
            : "waitingroom.keyset.generate-ephemeral is false";
    throw PropertyChecks.invalid(
        property,
        value,
        absent
            + ", and "
            + why
            + ": set waitingroom.keyset.env (an environment variable holding the keyset JSON),"
            + " waitingroom.keyset.file or waitingroom.keyset.resource. Make a keyset with java"
            + " io.github.waitingroom.servlet.GenerateKeyset.");
  }

  private static KeysetHandle parse(String property, Object value, String json) {
    // The one keyset policy (Keysets): the parser's message, which may quote key material, is never shown.
    String holder = property.endsWith(".env") ? "the environment variable " : property.endsWith(".file") ? "the file " : "the resource ";
    return Keysets.parse(json, SettingException.Source.PROPERTY, property, holder + value);
  }
}
