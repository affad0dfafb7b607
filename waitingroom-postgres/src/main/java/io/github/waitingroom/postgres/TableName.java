package io.github.waitingroom.postgres;

import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The name of the transport's table, as the application gave it: its role is to check the name
 * once, so that it can go into SQL text as it is (quoted, so that a reserved word such as {@code
 * values} is a name too; lower case only, so that quoted and unquoted mean the same table). A plain name ({@code waitingroom_values}) is
 * found through the connection's {@code search_path}; a qualified one ({@code coordination.values})
 * names its schema.
 *
 * @param schema the schema, or {@code null} for the connection's search path
 * @param table the table
 */
record TableName(@Nullable String schema, String table) {
  /**
   * An identifier that PostgreSQL takes unquoted and unchanged: lower case letters, digits and
   * underscores, not starting with a digit, at most 63 bytes.
   */
  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /** The default name. */
  static final TableName DEFAULT = new TableName(null, PostgresTransport.DEFAULT_TABLE);

  /**
   * Reads {@code name} or {@code schema.name}.
   *
   * @throws IllegalArgumentException naming what is wrong with it
   */
  static TableName parse(String name) {
    Objects.requireNonNull(name, "table");
    String[] parts = name.split("\\.", -1);
    if (parts.length > 2 || !IDENTIFIER.matcher(parts[parts.length - 1]).matches()
        || (parts.length == 2 && !IDENTIFIER.matcher(parts[0]).matches())) {
      throw new IllegalArgumentException(
          "table must be a name or schema.name, each of lower case letters, digits and underscores, not"
              + " starting with a digit, at most 63 characters, but was '"
              + name + "'");
    }
    return parts.length == 2 ? new TableName(parts[0], parts[1]) : new TableName(null, parts[0]);
  }

  /** {@return the name as SQL text, quoted: {@code "table"} or {@code "schema"."table"}} */
  String sql() {
    return schema == null ? '"' + table + '"' : '"' + schema + "\".\"" + table + '"';
  }

  @Override
  public String toString() {
    return schema == null ? table : schema + "." + table;
  }
}
