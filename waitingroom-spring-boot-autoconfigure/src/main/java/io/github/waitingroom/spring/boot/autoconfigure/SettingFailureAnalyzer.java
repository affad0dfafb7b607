package io.github.waitingroom.spring.boot.autoconfigure;

import io.github.waitingroom.http.SettingException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Spring Boot's startup report for a {@link SettingException}, the error every stack throws for a
 * bad setting: in the words Spring Boot uses for its own invalid properties, naming the property,
 * the value (when it may be shown) and the reason.
 */
public class SettingFailureAnalyzer extends AbstractFailureAnalyzer<SettingException> {
  /** Creates the analyzer; Spring Boot calls it. */
  public SettingFailureAnalyzer() {}

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, SettingException cause) {
    String where = cause.source() == SettingException.Source.PROPERTY
        ? "configuration property '" + cause.key() + "'"
        : cause.source().label() + " '" + cause.key() + "'";
    String value = cause.value();
    String description = (value == null ? "Invalid " + where : "Invalid value '" + value + "' for " + where)
        + ".\n\nReason: " + cause.reason();
    return new FailureAnalysis(description, "Review the value of " + where + ".", cause);
  }
}
