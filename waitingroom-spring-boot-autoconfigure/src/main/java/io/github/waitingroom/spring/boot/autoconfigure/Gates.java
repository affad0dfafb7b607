package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.WaitingRoom;
import io.github.waitingroom.spring.boot.WaitingRooms;
import io.github.waitingroom.http.Gate;
import io.github.waitingroom.http.GateRouter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.io.Resource;

/**
 * A room's {@link Gate} from its properties, for the servlet filter and the WebFlux filter alike; a
 * bad value fails the start with the property's name.
 */
final class Gates {
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
      throw new InvalidConfigurationPropertyValueException("waitingroom.rooms", p.getRooms().keySet(), e.getMessage());
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
    WaitingRoomAutoConfiguration.Properties.set(prefix + "path-prefix", p.getPathPrefix(), b::pathPrefix);
    List<String> ignored = new ArrayList<>(ignoredToo);
    for (String path : p.getIgnorePaths()) {
      WaitingRoomAutoConfiguration.Properties.set(prefix + "ignore-paths", path, v -> checkedIgnore(room, v));
      ignored.add(path);
    }
    b.ignorePaths(ignored.toArray(String[]::new));
    String cookieName = p.getCookie().getName();
    if (cookieName != null) {
      b.cookieName(cookieName);
    }
    b.cookieSecure(p.getCookie().getSecure());
    b.cookieSameSite(p.getCookie().getSameSite());
    WaitingRoomAutoConfiguration.Properties.set(prefix + "waiting-status", p.getWaitingStatus(), b::waitingStatus);
    WaitingRoomAutoConfiguration.Properties.set(prefix + "reject-status", p.getRejectStatus(), b::rejectStatus);
    b.revoke(p.isRevoke());
    b.statusParam(p.getStatusParam());
    Resource template = p.getPageTemplate();
    if (template != null) {
      String html;
      try {
        html = template.getContentAsString(StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new InvalidConfigurationPropertyValueException(
            prefix + "page-template", template.getDescription(), "cannot be read: " + e);
      }
      WaitingRoomAutoConfiguration.Properties.set(prefix + "page-template", html, b::template);
    }
    b.pageStyle(p.getPageStyle());
    WaitingRoomAutoConfiguration.Properties.set(prefix + "default-language", p.getDefaultLanguage(), b::defaultLanguage);
    WaitingRoomAutoConfiguration.Properties.setIfGiven(prefix + "language", p.getLanguage(), b::language);
    String messages = p.getMessagesDirectory();
    if (messages != null) {
      java.nio.file.Path dir = java.nio.file.Path.of(messages);
      if (!java.nio.file.Files.isDirectory(dir)) {
        throw new InvalidConfigurationPropertyValueException(
            prefix + "messages-directory", messages, "is not a readable directory");
      }
      b.messagesDirectory(dir);
    }
    WaitingRoomAutoConfiguration.Properties.set(prefix + "brand-name", p.getBrandName(), b::brandName);
    WaitingRoomAutoConfiguration.Properties.set(prefix + "logo-url", p.getLogoUrl(), b::logoUrl);
    WaitingRoomAutoConfiguration.Properties.set(prefix + "brand-color", p.getBrandColor(), b::brandColor);
    WaitingRoomAutoConfiguration.Properties.set(prefix + "proof-of-work", p.getProofOfWork(), b::proofOfWork);
    WaitingRoomAutoConfiguration.Properties.set(prefix + "challenge-penalty", p.getChallengePenalty(), b::challengePenalty);
    RoomProperties.HumanCheck h = p.getHumanCheck();
    if (h.getProvider() != RoomProperties.HumanCheck.Provider.NONE) {
      String hp = prefix + "human-check.";
      String site = WaitingRoomAutoConfiguration.Properties.required(hp + "site-key", h.getSiteKey());
      String secret = WaitingRoomAutoConfiguration.Properties.required(hp + "secret-key", h.getSecretKey());
      io.github.waitingroom.http.SiteVerify[] check = new io.github.waitingroom.http.SiteVerify[1];
      WaitingRoomAutoConfiguration.Properties.set(hp + "site-key", site, v -> check[0] = switch (h.getProvider()) {
        case TURNSTILE -> io.github.waitingroom.http.SiteVerify.turnstile(v, secret);
        case HCAPTCHA -> io.github.waitingroom.http.SiteVerify.hcaptcha(v, secret);
        default -> io.github.waitingroom.http.SiteVerify.recaptcha(v, secret);
      });
      String url = h.getVerifyUrl();
      if (url != null) {
        WaitingRoomAutoConfiguration.Properties.set(hp + "verify-url", url, v -> check[0] = check[0].verifyUrl(v));
      }
      WaitingRoomAutoConfiguration.Properties.set(hp + "flag-below", h.getFlagBelow(), v -> check[0] = check[0].flagBelow(v));
      WaitingRoomAutoConfiguration.Properties.set(hp + "timeout", h.getTimeout(), v -> check[0] = check[0].timeout(v));
      b.humanCheck(check[0]);
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      // build() checks the settings that depend on each other; its message starts with the setting.
      String message = String.valueOf(e.getMessage());
      if (message.startsWith("pathPrefix")) {
        throw new InvalidConfigurationPropertyValueException(prefix + "path-prefix", p.getPathPrefix(), message);
      }
      if (message.startsWith("statusParam")) {
        throw new InvalidConfigurationPropertyValueException(prefix + "status-param", p.getStatusParam(), message);
      }
      if (message.startsWith("defaultLanguage")) {
        throw new InvalidConfigurationPropertyValueException(prefix + "default-language", p.getDefaultLanguage(), message);
      }
      if (message.startsWith("language")) {
        throw new InvalidConfigurationPropertyValueException(prefix + "language", p.getLanguage(), message);
      }
      if (message.startsWith("messagesDirectory") || message.startsWith("Waiting page texts")) {
        throw new InvalidConfigurationPropertyValueException(prefix + "messages-directory", messages, message);
      }
      if (message.startsWith("waiting page template")) {
        Resource t = p.getPageTemplate();
        throw new InvalidConfigurationPropertyValueException(
            prefix + "page-template", t == null ? null : t.getDescription(), message);
      }
      if (message.startsWith("cookieSameSite")) {
        throw new InvalidConfigurationPropertyValueException(
            prefix + "cookie.same-site", p.getCookie().getSameSite(), message);
      }
      throw new InvalidConfigurationPropertyValueException(prefix + "cookie.name", cookieName, message);
    }
  }

  private static void checkedIgnore(WaitingRoom room, String path) {
    // The gate builder checks ignore paths only in build(); check each one here to name it.
    Gate.builder(room).ignorePaths(path).build();
  }
}
