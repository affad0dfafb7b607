package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateOptions;
import io.github.waitingroom.http.GateRouter;
import io.github.waitingroom.http.GateSettings;
import io.github.waitingroom.http.Setting;
import io.github.waitingroom.http.SettingException;
import io.github.waitingroom.http.SiteVerify;
import io.github.waitingroom.spring.boot.WaitingRooms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.core.io.Resource;

/**
 * A room's {@link Gate} from its properties, for the servlet filter and the WebFlux filter alike.
 * Each property is bound through its setting's declaration ({@link GateSettings}: the property
 * {@code <prefix><setting.property()>} of {@link RoomProperties}); a bad value fails the start with
 * a {@link SettingException} that names the property.
 */
final class Gates {
  private static final SettingException.Source PROPERTY = SettingException.Source.PROPERTY;

  private Gates() {}

  /**
   * The gates of every room, the main one (if any) first, checked to share no path prefix and no
   * cookie name.
   *
   * @param ignoredToo paths that pass through every room besides its {@code ignore-paths}
   * @param guarded receives a line per room for the startup log: its id and prefix
   */
  static List<Gate> all(
      @Nullable WaitingRoom main,
      @Nullable WaitingRooms named,
      WaitingRoomProperties p,
      List<String> ignoredToo,
      List<String> guarded) {
    List<Gate> gates = new ArrayList<>();
    if (main != null) {
      gates.add(gate(WaitingRoomAutoConfiguration.MAIN_ROOM, p, main, ignoredToo));
      guarded.add("'" + main.config().roomId() + "' " + p.getPathPrefix());
    }
    if (named != null) {
      for (Map.Entry<String, WaitingRoom> e : named.asMap().entrySet()) {
        RoomProperties r = p.getRooms().getOrDefault(e.getKey(), new RoomProperties());
        gates.add(gate(WaitingRoomAutoConfiguration.namedRoom(e.getKey()), r, e.getValue(), ignoredToo));
        guarded.add("'" + e.getValue().config().roomId() + "' " + r.getPathPrefix());
      }
    }
    try {
      GateRouter.of(gates);
    } catch (IllegalArgumentException e) {
      throw new SettingException(
          "pathPrefix", PROPERTY, "waitingroom.rooms", String.valueOf(p.getRooms().keySet()),
          String.valueOf(e.getMessage()), e);
    }
    return gates;
  }

  /**
   * The gate of one room, from the room's properties under {@code prefix}.
   *
   * @param ignoredToo paths that pass through besides the room's {@code ignore-paths}
   */
  static Gate gate(String prefix, RoomProperties p, WaitingRoom room, List<String> ignoredToo) {
    Gate.Builder b = Gate.builder(room);
    BeanWrapper properties = new BeanWrapperImpl(p);
    for (Setting<?> s : GateSettings.all()) {
      String property = s.property();
      Object value = property == null ? null : properties.getPropertyValue(beanPath(property));
      if (property != null && value != null) {
        bind(b, s, value, prefix + property);
      }
    }
    b.ignorePaths(ignoredToo.toArray(String[]::new));
    humanCheck(b, prefix + "human-check.", p.getHumanCheck());
    try {
      return b.build();
    } catch (SettingException e) {
      // A check that spans settings: name the property of the setting it blames.
      Setting<?> s = GateSettings.named(e.setting());
      String property = s == null ? null : s.property();
      throw e.from(PROPERTY, prefix + (property == null ? e.setting() : property));
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends @Nullable Object> void bind(GateOptions<?> b, Setting<T> s, Object value, String name) {
    Object v = value;
    if (v instanceof Resource r) {
      try {
        v = r.getContentAsString(StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new SettingException(s.name(), PROPERTY, name, r.getDescription(), "cannot be read: " + e, e);
      }
    } else if (s.type() == Path.class && v instanceof String dir) {
      v = Path.of(dir);
    }
    b.set(s, s.check((T) v, PROPERTY, name));
  }

  /** The human check of {@code human-check.*}, when a provider is set. */
  private static void humanCheck(GateOptions<?> b, String prefix, GateProperties.HumanCheck h) {
    if (h.getProvider() == GateProperties.HumanCheck.Provider.NONE) {
      return;
    }
    String site = PropertyChecks.required(prefix + "site-key", h.getSiteKey());
    String secret = PropertyChecks.required(prefix + "secret-key", h.getSecretKey());
    SiteVerify check = PropertyChecks.check(
        prefix + "site-key", site, v -> SiteVerify.of(h.getProvider().name(), v, secret));
    String url = h.getVerifyUrl();
    if (url != null) {
      check = PropertyChecks.check(prefix + "verify-url", url, check::verifyUrl);
    }
    check = PropertyChecks.check(prefix + "flag-below", h.getFlagBelow(), check::flagBelow);
    check = PropertyChecks.check(prefix + "timeout", h.getTimeout(), check::timeout);
    b.set(GateSettings.HUMAN_CHECK, check);
  }

  /** A relative property name as a bean path: {@code cookie.same-site} is {@code cookie.sameSite}. */
  static String beanPath(String property) {
    StringBuilder s = new StringBuilder();
    boolean upper = false;
    for (char c : property.toCharArray()) {
      if (c == '-') {
        upper = true;
      } else {
        s.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return s.toString();
  }
}
