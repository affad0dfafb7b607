package io.github.waitingroom.http;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * A CAPTCHA service (Cloudflare Turnstile, hCaptcha, Google reCAPTCHA, or your own) that a
 * newcomer may pass to get a place in line at once, instead of solving the {@linkplain
 * Gate.Builder#proofOfWork proof of work} or waiting out the {@linkplain Gate.Builder#challengePenalty
 * penalty}. Asked only of a newcomer the room would put in line (never while the room has a free
 * slot, never of an admitted or waiting visitor: never on the hot path), and once per newcomer:
 * the place it then gets is an ordinary one. {@link SiteVerify} speaks the {@code siteverify}
 * protocol the three services share.
 *
 * <p>The challenge page shows the service's {@link #widget()}; when the visitor passes it, the
 * widget's callback sends its token with the page's status poll ({@code ?waitingRoomHuman=<token>}),
 * and the gate asks {@link #verify}, decoded from the query once, and waits for it at most {@link
 * #timeout()}. A client the service {@linkplain Verdict#FLAGGED flags} goes
 * to the infinite queue: a waiting page that never lets it in, and that it never leaves while it
 * keeps its cookies.
 */
public interface HumanCheck {
  /**
   * What the challenge page needs to show the service's widget.
   *
   * @return the widget
   */
  Widget widget();

  /**
   * Asks the service about a token from its widget. Called on the newcomer's request only; neither
   * filter waits for the answer on a thread (the servlet filter does where its filter chain does
   * not support asynchronous requests). Should complete, normally with {@link Verdict#FAILED}, within a few
   * seconds when the service does not answer; an exceptional completion counts as {@link
   * Verdict#FAILED} (the visitor can try again, or waits out the penalty).
   *
   * @param token what the widget gave the page (at most {@value #MAX_TOKEN_LENGTH} characters)
   * @param remoteAddress the client's address as the server sees it, or {@code null}
   * @return the verdict
   */
  CompletionStage<Verdict> verify(String token, @Nullable String remoteAddress);

  /**
   * The longest a verdict may take; the verdict is then {@link Verdict#FAILED} (and a servlet
   * filter without asynchronous support waits no longer than this on a request thread); {@link SiteVerify} completes {@link
   * #verify} within it. Default: 5 seconds.
   *
   * @return the timeout, at most 30 seconds
   */
  default Duration timeout() {
    return DEFAULT_TIMEOUT;
  }

  /** The default {@link #timeout()}. */
  Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** The query parameter that carries the widget's token to the gate: {@code ?waitingRoomHuman=<token>}. */
  String PARAM = "waitingRoomHuman";

  /** The longest token the gate passes on to {@link #verify}; a longer one is not asked about. */
  int MAX_TOKEN_LENGTH = 4096;

  /** How long a client {@linkplain Verdict#FLAGGED flagged} stays in the infinite queue (its marker cookie's life). */
  long FLAGGED_SECONDS = 86_400;

  /** What a check found. */
  enum Verdict {
    /** A person: the newcomer gets a place in line now. */
    PASSED,
    /** Not shown to be a person (a bad, expired or reused token, the service down): asked again. */
    FAILED,
    /** A bot, by the service's judgement: the newcomer goes to the infinite queue. */
    FLAGGED
  }

  /**
   * The service's widget on the challenge page: {@code <script src="scriptUrl" async defer>} and
   * {@code <div class="cssClass" data-sitekey="siteKey" data-callback="wrHumanCheck">}. The page's
   * Content-Security-Policy then allows {@code sources} for scripts, frames, styles and requests
   * (on the challenge page only).
   *
   * @param scriptUrl the service's {@code api.js}, an {@code https://} URL
   * @param cssClass the class its script looks for ({@code cf-turnstile}, {@code h-captcha},
   *     {@code g-recaptcha})
   * @param siteKey the site's public key for the service
   * @param sources the origins (CSP source expressions) the widget loads from
   */
  record Widget(String scriptUrl, String cssClass, String siteKey, List<String> sources) {
    /** Checks that nothing in the widget can break out of the page's HTML or policy. */
    public Widget {
      Objects.requireNonNull(scriptUrl, "scriptUrl");
      Objects.requireNonNull(cssClass, "cssClass");
      Objects.requireNonNull(siteKey, "siteKey");
      sources = List.copyOf(sources);
      if (!scriptUrl.matches("https://[A-Za-z0-9.-]+(:[0-9]+)?/[A-Za-z0-9._~/?&=%-]*")) {
        throw new IllegalArgumentException("humanCheck scriptUrl must be an https:// URL but was '" + scriptUrl + "'");
      }
      if (!cssClass.matches("[A-Za-z][A-Za-z0-9_-]{0,63}")) {
        throw new IllegalArgumentException("humanCheck cssClass must be a CSS class name but was '" + cssClass + "'");
      }
      if (!siteKey.matches("[A-Za-z0-9._-]{1,200}")) {
        throw new IllegalArgumentException(
            "humanCheck siteKey must be 1 to 200 characters out of A-Z a-z 0-9 . _ - but was '" + siteKey + "'");
      }
      for (String s : sources) {
        if (!s.matches("https://[A-Za-z0-9.*-]+(:[0-9]+)?(/[A-Za-z0-9._~/-]*)?")) {
          throw new IllegalArgumentException("humanCheck sources must be https:// origins but held '" + s + "'");
        }
      }
    }
  }
}
