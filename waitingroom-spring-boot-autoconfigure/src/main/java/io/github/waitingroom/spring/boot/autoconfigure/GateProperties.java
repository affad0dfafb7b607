package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.http.CookieSecure;
import io.github.waitingroom.http.GateSettings;
import io.github.waitingroom.http.PageStyle;
import io.github.waitingroom.http.SameSite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.Resource;

/**
 * The HTTP gate's settings of one room, as Spring Boot properties: its role is the properties of
 * {@code Gate.Builder} (the paths it guards, its statuses, its cookie, its waiting page, its
 * friction), each declared in {@link GateSettings}, which names it, gives its default and its
 * description, and binds it ({@code Gates}); a test checks the IDE metadata and the defaults here
 * against those declarations. {@link RoomProperties} adds the room's limits; the property names
 * are those of a room ({@code waitingroom.*} and {@code waitingroom.rooms.<name>.*}).
 */
public abstract class GateProperties {

  /** Declared by {@link GateSettings#PATH_PREFIX} (the IDE metadata's description and default). */
  private String pathPrefix = "/";

  /** Declared by {@link GateSettings#IGNORE_PATHS} (the IDE metadata's description and default). */
  private List<String> ignorePaths = new ArrayList<>();

  /** Declared by {@link GateSettings#WAITING_STATUS} (the IDE metadata's description and default). */
  private int waitingStatus = 200;

  /** Declared by {@link GateSettings#REJECT_STATUS} (the IDE metadata's description and default). */
  private int rejectStatus = 403;

  /** Declared by {@link GateSettings#REVOKE} (the IDE metadata's description and default). */
  private boolean revoke;

  /** Declared by {@link GateSettings#STATUS_PARAM} (the IDE metadata's description and default). */
  private String statusParam = "waitingRoomStatus";

  /** Declared by {@link GateSettings#TEMPLATE} (the IDE metadata's description and default). */
  private @Nullable Resource pageTemplate;

  /** Declared by {@link GateSettings#PAGE_STYLE} (the IDE metadata's description and default). */
  private PageStyle pageStyle = PageStyle.PLAIN;

  /** Declared by {@link GateSettings#DEFAULT_LANGUAGE} (the IDE metadata's description and default). */
  private String defaultLanguage = "en";

  /** Declared by {@link GateSettings#LANGUAGE} (the IDE metadata's description and default). */
  private @Nullable String language;

  /** Declared by {@link GateSettings#MESSAGES_DIRECTORY} (the IDE metadata's description and default). */
  private @Nullable String messagesDirectory;

  /** Declared by {@link GateSettings#BRAND_NAME} (the IDE metadata's description and default). */
  private String brandName = "";

  /** Declared by {@link GateSettings#LOGO_URL} (the IDE metadata's description and default). */
  private String logoUrl = "";

  /** Declared by {@link GateSettings#BRAND_COLOR} (the IDE metadata's description and default). */
  private String brandColor = "#2f6fdf";

  /** Declared by {@link GateSettings#PROOF_OF_WORK} (the IDE metadata's description and default). */
  private int proofOfWork;

  /** Declared by {@link GateSettings#CHALLENGE_PENALTY} (the IDE metadata's description and default). */
  private Duration challengePenalty = Duration.ofSeconds(30);

  /** Declared by {@link GateSettings#NO_SCRIPT_PLACES} (the IDE metadata's description and default). */
  private int noScriptPlaces;

  /** Declared by {@link GateSettings#CORS_PASS_THROUGH} (the IDE metadata's description and default). */
  private boolean corsPassThrough;

  /** Declared by {@link GateSettings#CONFIRM_NEWCOMERS} (the IDE metadata's description and default). */
  private boolean confirmNewcomers;

  /** A CAPTCHA service newcomers may pass instead (Turnstile, hCaptcha, reCAPTCHA). */
  private final HumanCheck humanCheck = new HumanCheck();

  /** The ticket cookie. */
  private final Cookie cookie = new Cookie();

  /** Creates the gate's properties with the defaults. */
  protected GateProperties() {}

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

  public int getWaitingStatus() {
    return waitingStatus;
  }

  public void setWaitingStatus(int waitingStatus) {
    this.waitingStatus = waitingStatus;
  }

  public int getRejectStatus() {
    return rejectStatus;
  }

  public void setRejectStatus(int rejectStatus) {
    this.rejectStatus = rejectStatus;
  }

  public boolean isRevoke() {
    return revoke;
  }

  public void setRevoke(boolean revoke) {
    this.revoke = revoke;
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

  public PageStyle getPageStyle() {
    return pageStyle;
  }

  public void setPageStyle(PageStyle pageStyle) {
    this.pageStyle = pageStyle;
  }

  public String getDefaultLanguage() {
    return defaultLanguage;
  }

  public void setDefaultLanguage(String defaultLanguage) {
    this.defaultLanguage = defaultLanguage;
  }

  public @Nullable String getLanguage() {
    return language;
  }

  public void setLanguage(@Nullable String language) {
    this.language = language;
  }

  public @Nullable String getMessagesDirectory() {
    return messagesDirectory;
  }

  public void setMessagesDirectory(@Nullable String messagesDirectory) {
    this.messagesDirectory = messagesDirectory;
  }

  public String getBrandName() {
    return brandName;
  }

  public void setBrandName(String brandName) {
    this.brandName = brandName;
  }

  public String getLogoUrl() {
    return logoUrl;
  }

  public void setLogoUrl(String logoUrl) {
    this.logoUrl = logoUrl;
  }

  public String getBrandColor() {
    return brandColor;
  }

  public void setBrandColor(String brandColor) {
    this.brandColor = brandColor;
  }

  public Cookie getCookie() {
    return cookie;
  }

  public int getProofOfWork() {
    return proofOfWork;
  }

  public void setProofOfWork(int proofOfWork) {
    this.proofOfWork = proofOfWork;
  }

  public Duration getChallengePenalty() {
    return challengePenalty;
  }

  public void setChallengePenalty(Duration challengePenalty) {
    this.challengePenalty = challengePenalty;
  }

  public int getNoScriptPlaces() {
    return noScriptPlaces;
  }

  public void setNoScriptPlaces(int noScriptPlaces) {
    this.noScriptPlaces = noScriptPlaces;
  }

  public boolean isCorsPassThrough() {
    return corsPassThrough;
  }

  public void setCorsPassThrough(boolean corsPassThrough) {
    this.corsPassThrough = corsPassThrough;
  }

  public boolean isConfirmNewcomers() {
    return confirmNewcomers;
  }

  public void setConfirmNewcomers(boolean confirmNewcomers) {
    this.confirmNewcomers = confirmNewcomers;
  }

  public HumanCheck getHumanCheck() {
    return humanCheck;
  }

  /** The {@code human-check.*} properties of a room: a siteverify CAPTCHA service. */
  public static class HumanCheck {
    /** The service: none (default), turnstile, hcaptcha or recaptcha. */
    private Provider provider = Provider.NONE;

    /** The site's public key for the service. */
    private @Nullable String siteKey;

    /** The site's secret key for the service (keep it out of the repository: an environment variable). */
    private @Nullable String secretKey;

    /** Another verify URL than the service's own (a proxy). */
    private @Nullable String verifyUrl;

    /**
     * A score from 0 to 1: a good token whose score (reCAPTCHA v3, hCaptcha Enterprise) is below
     * it sends the client to the infinite queue. 0: none.
     */
    private double flagBelow;

    /** How long to wait for the service. */
    private Duration timeout = Duration.ofSeconds(5);

    /** The CAPTCHA services {@code SiteVerify} knows. */
    public enum Provider {
      /** No human check. */
      NONE,
      /** Cloudflare Turnstile. */
      TURNSTILE,
      /** hCaptcha. */
      HCAPTCHA,
      /** Google reCAPTCHA. */
      RECAPTCHA
    }

    public Provider getProvider() {
      return provider;
    }

    public void setProvider(Provider provider) {
      this.provider = provider;
    }

    public @Nullable String getSiteKey() {
      return siteKey;
    }

    public void setSiteKey(@Nullable String siteKey) {
      this.siteKey = siteKey;
    }

    public @Nullable String getSecretKey() {
      return secretKey;
    }

    public void setSecretKey(@Nullable String secretKey) {
      this.secretKey = secretKey;
    }

    public @Nullable String getVerifyUrl() {
      return verifyUrl;
    }

    public void setVerifyUrl(@Nullable String verifyUrl) {
      this.verifyUrl = verifyUrl;
    }

    public double getFlagBelow() {
      return flagBelow;
    }

    public void setFlagBelow(double flagBelow) {
      this.flagBelow = flagBelow;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** The {@code cookie.*} properties of a room. */
  public static class Cookie {
    /** Declared by {@link GateSettings#COOKIE_NAME} (the IDE metadata's description and default). */
    private @Nullable String name;

    /** Declared by {@link GateSettings#COOKIE_SECURE} (the IDE metadata's description and default). */
    private CookieSecure secure = CookieSecure.AUTO;

    /** Declared by {@link GateSettings#COOKIE_SAME_SITE} (the IDE metadata's description and default). */
    private SameSite sameSite = SameSite.LAX;

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
}
