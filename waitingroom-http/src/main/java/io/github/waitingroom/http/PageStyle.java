package io.github.waitingroom.http;

/**
 * The waiting pages shipped with the library; a custom template ({@link Gate.Builder#template})
 * replaces either.
 */
public enum PageStyle {
  /** A calm page in the system's colours, light or dark as the visitor's system prefers (the default). */
  PLAIN("waiting-page.html"),
  /**
   * The same texts under a band in the brand colour ({@link Gate.Builder#brandColor}) with the logo
   * ({@link Gate.Builder#logoUrl}) and name ({@link Gate.Builder#brandName}).
   */
  BRANDED("waiting-page-branded.html");

  final String resource;

  PageStyle(String resource) {
    this.resource = resource;
  }
}
