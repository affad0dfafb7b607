package io.github.waitingroom.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * How an adapter that reads a request's body from a blocking stream (the servlet dashboard) reads
 * the body of a {@code PUT} to the {@link OperatorApi}: at most {@link OperatorApi#MAX_BODY_BYTES}
 * bytes as UTF-8, and a longer one refused and drained, so that the client reads the API's 413.
 */
public final class OperatorBody {
  /** The most bytes of a refused body that are read and dropped. */
  private static final long DRAIN_LIMIT = 4L * OperatorApi.MAX_BODY_BYTES;

  private OperatorBody() {}

  /**
   * Reads a body of at most {@link OperatorApi#MAX_BODY_BYTES} bytes.
   *
   * @param in the body's stream
   * @param declaredLength the length the request declares ({@code Content-Length}), or -1 when unknown
   * @return the body as UTF-8, or {@code null} when it is longer (what is left of it is then read
   *     and dropped, up to four times the limit)
   * @throws IOException when it cannot be read
   */
  public static @Nullable String read(InputStream in, long declaredLength) throws IOException {
    if (declaredLength > OperatorApi.MAX_BODY_BYTES) {
      drain(in);
      return null;
    }
    byte[] bytes = in.readNBytes(OperatorApi.MAX_BODY_BYTES + 1);
    if (bytes.length > OperatorApi.MAX_BODY_BYTES) {
      drain(in);
      return null;
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * Reads and drops what is left of a refused body, up to {@value #DRAIN_LIMIT} bytes (the request
   * passed the token check): a client still sending it then reads the 413 instead of a connection
   * the server reset under it, which it did now and then ("header parser received no bytes").
   */
  private static void drain(InputStream in) throws IOException {
    long left = DRAIN_LIMIT;
    while (left > 0) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        if (in.read() < 0) {
          return;
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }
}
