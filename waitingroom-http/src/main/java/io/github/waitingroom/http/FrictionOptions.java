package io.github.waitingroom.http;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The settings of the friction newcomers face while people wait, as a builder sets them ({@link
 * GateOptions} is the one that does): a proof of work, a human check, and how a newcomer who meets
 * neither may still get a place. Each method checks its value by the setting's {@linkplain
 * GateSettings declaration}, whose error ({@link SettingException}) names the setting.
 *
 * @param <B> the builder's own type
 */
public interface FrictionOptions<B extends GateOptions<B>> {
  /**
   * Sets a setting by its declaration ({@link GateOptions#set}).
   *
   * @param setting the setting
   * @param value the value
   * @param <T> its type
   * @return this builder
   * @throws SettingException naming the setting when the value is refused
   */
  <T extends @Nullable Object> B set(Setting<T> setting, T value);

  /**
   * Asks newcomers for a proof of work while people wait: a newcomer the room would put in line
   * gets a challenge page first, whose script solves a {@link ProofOfWork} challenge in a Web
   * Worker (about 2<sup>bits</sup> SHA-256 hashes) and gets its place when the gate has checked
   * the solution (one AEAD decryption and one hash). Nothing changes while the room has slots
   * for new arrivals, nor for admitted or waiting visitors. A solution counts only for the
   * challenge in the solving client's own challenge cookie, and once per node: every place costs
   * one solution. A challenge counts only from the client address it was issued to (an IPv6
   * address by its /64): behind a proxy, let the container read the client's address from it. A
   * visitor without JavaScript, or whose browser fails, gets a place only within
   * the {@linkplain #noScriptPlaces no-script budget} (none by default), once the {@linkplain
   * #challengePenalty penalty} is over. The costs measured on a desktop and an emulated phone are
   * in the README ("Bots and floods"). Default: 0, off.
   *
   * @param bits the leading zero bits of a solution, 0 (off) to {@value ProofOfWork#MAX_DIFFICULTY}
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  default B proofOfWork(int bits) {
    return set(GateSettings.PROOF_OF_WORK, bits);
  }

  /**
   * How long a newcomer who solves no challenge (no JavaScript, a failed worker, no human check
   * passed) waits on the challenge page before it may get a place within the {@linkplain
   * #noScriptPlaces no-script budget}: counted from its first challenge, which its challenge
   * cookie keeps; also how often the challenge page reloads. Without a budget (the default),
   * waiting gets no place: only a solution or a passed human check does. Default: 30 seconds.
   *
   * @param penalty 1 s to 5 min
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  default B challengePenalty(Duration penalty) {
    return set(GateSettings.CHALLENGE_PENALTY, Objects.requireNonNull(penalty, "challengePenalty"));
  }

  /**
   * How many newcomers per minute this node lets queue for only waiting out the {@linkplain
   * #challengePenalty penalty} on the challenge page, without a solution or a passed human
   * check: the path of a browser without JavaScript. The budget is the node's, shared by every
   * such client, and one client address (an IPv6 address by its /64) gets at most one place of
   * it a minute, from a challenge issued to that address: a bot that fetches (harvests) any
   * number of challenges and waits gets one place a minute per address it holds, and never more
   * than the budget. A bot with as many addresses as the budget can still take all of it, so
   * grant only what you would give away. Default: 0, none: with friction on,
   * every place in line costs a solved proof of work or a passed human check (a failed or never
   * answered check stays failed however long the client waits).
   *
   * @param perMinute 0 (none) to 10,000
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  default B noScriptPlaces(int perMinute) {
    return set(GateSettings.NO_SCRIPT_PLACES, perMinute);
  }

  /**
   * A CAPTCHA service that newcomers may pass instead of the proof of work (or with none: then
   * the widget, or the penalty within the {@linkplain #noScriptPlaces no-script budget}), such as {@link SiteVerify#turnstile}, {@link SiteVerify#hcaptcha}
   * or {@link SiteVerify#recaptcha}. Asked once per newcomer the room would put in line; a
   * client it {@linkplain HumanCheck.Verdict#FLAGGED flags} goes to the infinite queue. The
   * challenge page's Content-Security-Policy allows the widget's sources. Default: none.
   *
   * @param check the service, or {@code null} for none
   * @return this builder
   * @throws SettingException when the value is refused, naming the setting
   */
  default B humanCheck(@Nullable HumanCheck check) {
    return set(GateSettings.HUMAN_CHECK, check);
  }
}
