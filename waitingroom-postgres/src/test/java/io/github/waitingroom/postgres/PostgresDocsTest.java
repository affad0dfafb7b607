package io.github.waitingroom.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The SQL that {@code docs/postgres.md} shows teams that manage their schema themselves is the SQL
 * the transport runs (the resource {@code schema.sql}), so the two cannot drift apart.
 */
class PostgresDocsTest {
  private static final Path DOCS = Path.of("../docs/postgres.md");

  @Test
  void theDocumentedSchemaIsTheOneTheTransportCreates() throws Exception {
    String docs = Files.readString(DOCS, StandardCharsets.UTF_8);
    int start = docs.indexOf("```sql\n");
    assertThat(start).as("a ```sql block in %s", DOCS).isNotNegative();
    int end = docs.indexOf("```", start + 7);
    String documented = docs.substring(start + 7, end);
    assertThat(documented).isEqualTo(PostgresTransport.schemaSql());
    assertThat(docs.indexOf("```sql\n", end + 3)).as("one SQL block").isNegative();
  }
}
