package io.github.waitingroom.http;

/**
 * A waiting page template that cannot be used: it does not parse, or it names a variable the page
 * does not have. Thrown when the filter is built, so a bad template stops the application at
 * start-up; the message names the template, the line and the column (both from 1) and the reason:
 * {@code waiting page template (custom template), line 12, column 5: section {{#waitTimeKnown}} is
 * never closed}.
 */
public final class PageTemplateException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;

  PageTemplateException(String source, int line, int column, String reason) {
    super("waiting page template (" + source + "), line " + line + ", column " + column + ": " + reason);
    this.line = line;
    this.column = column;
  }

  /**
   * The line of the problem.
   *
   * @return the line, from 1
   */
  public int line() {
    return line;
  }

  /**
   * The column of the problem: the first character of the offending tag.
   *
   * @return the column, from 1, in UTF-16 characters
   */
  public int column() {
    return column;
  }
}
