package io.github.waitingroom.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The scripts a waiting page carries, kept as resource files next to this class and loaded once:
 * {@code pow-worker.js} (served as it is), and {@code challenge-script.js} and {@code
 * refresh-script.js}, whose {@code {{name}}} markers are filled in by one pass over the text (a
 * value is never scanned for markers again), inside a {@code <script>} element with the page's
 * nonce.
 */
final class PageScripts {
  /** The proof-of-work worker, served at {@code ?<statusParam>=pow-worker.js}. */
  static final String WORKER_SCRIPT = resource("pow-worker.js");

  private static final PageScripts.Template CHALLENGE = Template.parse(resource("challenge-script.js"));
  private static final PageScripts.Template REFRESH = Template.parse(resource("refresh-script.js"));

  private PageScripts() {}

  /**
   * The challenge page's script: solves the proof of work in a worker ({@value ProofOfWork#WORKER}, served
   * by the gate) and sends it with a status poll; the human check's widget calls {@code
   * wrHumanCheck(token)}, which sends its token the same way. Either answer that is no longer a
   * challenge (a place, or the room let the visitor in) reloads the page. Whatever fails (no
   * worker, a refused proof, a network error), the page reloads once the penalty is over, as the
   * {@code <noscript>} meta refresh does without JavaScript.
   */
  static String challenge(String nonce, Friction.Challenged c, String back, String statusParam) {
    return script(nonce, CHALLENGE.render(Map.of(
        "token", c.token(),
        "bits", Integer.toString(c.difficulty()),
        "wait", Long.toString(c.remainingSeconds()),
        "back", back,
        "statusParam", statusParam,
        "humanParam", HumanCheck.PARAM,
        "proofParam", ProofOfWork.PARAM,
        "worker", ProofOfWork.WORKER)));
  }

  /**
   * The page's poll: asks for the JSON status every refresh interval, puts the new texts into the
   * elements marked {@code data-wr="<name>"} (those inside an {@code aria-live} region at most once
   * a minute, so that a screen reader is not made to announce every poll), and reloads the page
   * once the visitor may go in. A page that answered a sent form goes back instead to the page the
   * form was sent from ({@code back}): by the browser's history when that is where the visitor came
   * from, which gives back what they typed where the browser kept it, else by loading it. An event's
   * countdown ticks each second in the digits that begin at {@code zero}, those of the page's other
   * numbers.
   */
  static String refresh(String nonce, long refresh, String back, String state, PageModel.EventNow event,
      String statusParam, char zero) {
    return script(nonce, REFRESH.render(Map.of(
        "refresh", Long.toString(refresh),
        "untilStart", Long.toString(event.prequeueing() ? event.untilStart() : -1),
        "back", back,
        "state", state,
        "statusParam", statusParam,
        "zero", Integer.toString(zero))));
  }

  /** The human check's widget: the service's script and the element it fills in. */
  static String widget(String nonce, HumanCheck.Widget w) {
    return "<script nonce=\"" + nonce + "\" src=\"" + w.scriptUrl() + "\" async defer></script>\n"
        + "<div class=\"" + w.cssClass() + "\" data-sitekey=\"" + w.siteKey() + "\" data-callback=\"wrHumanCheck\"></div>";
  }

  private static String script(String nonce, String body) {
    return "<script nonce=\"" + nonce + "\">\n" + body + "</script>";
  }

  static String resource(String name) {
    try (InputStream in = PageScripts.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A text with {@code {{name}}} markers, split once into literal parts and names. */
  record Template(List<String> literals, List<String> names) {
    static Template parse(String text) {
      List<String> literals = new ArrayList<>();
      List<String> names = new ArrayList<>();
      int from = 0;
      while (true) {
        int open = text.indexOf("{{", from);
        if (open < 0) {
          literals.add(text.substring(from));
          return new Template(List.copyOf(literals), List.copyOf(names));
        }
        int close = text.indexOf("}}", open);
        if (close < 0) {
          throw new IllegalStateException("unclosed marker at " + open);
        }
        literals.add(text.substring(from, open));
        names.add(text.substring(open + 2, close));
        from = close + 2;
      }
    }

    /** The text with each marker replaced by its value, in one pass. */
    String render(Map<String, String> values) {
      StringBuilder out = new StringBuilder(literals.get(0).length() * 2 + 256);
      for (int i = 0; i < names.size(); i++) {
        out.append(literals.get(i)).append(Objects.requireNonNull(values.get(names.get(i)), names.get(i)));
      }
      return out.append(literals.get(names.size())).toString();
    }
  }
}
