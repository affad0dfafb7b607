/**
 * The container-neutral half of the waiting room's web filters: {@link io.github.waitingroom.http.Gate}.
 *
 * <p>A gate knows which requests its room decides ({@link io.github.waitingroom.http.PathRules}),
 * builds the two ticket cookies (the session and the place in line) with every attribute, and renders the waiting page and the JSON status.
 * It speaks in plain values: an adapter reads its own request type into a {@link
 * io.github.waitingroom.http.GateRequest} and writes the {@link
 * io.github.waitingroom.http.GateResponse} back. The servlet filter ({@code waitingroom-servlet})
 * and the WebFlux {@code WebFilter} ({@code waitingroom-webflux}) are two such adapters, so both
 * stacks answer with the same status, headers and bytes. With several rooms in one application,
 * {@link io.github.waitingroom.http.GateRouter} gives each request to the room with the most
 * specific path prefix, for both adapters alike. Nothing here imports a servlet, Spring or Reactor
 * type.
 *
 * <p>The waiting page is a Mustache template (JMustache, HTML-escaped by default; {@link
 * io.github.waitingroom.http.PageStyle} names the built-in ones), checked when the gate is built
 * ({@link io.github.waitingroom.http.PageTemplateException} gives the line and column). Its texts
 * come from UTF-8 properties files per language, chosen by {@code Accept-Language}, counted by
 * {@link io.github.waitingroom.http.PluralRules} (CLDR), with the language's number and time formats.
 */
@NullMarked
package io.github.waitingroom.http;

import org.jspecify.annotations.NullMarked;
