package io.github.waitingroom.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * waitingroom-bom manages exactly the modules we publish, at the parent's version: a new module
 * that is not added to the BOM (or a BOM left behind by a version bump) fails the build. It lives
 * here because the BOM, a pom, has no tests of its own.
 */
class BomTest {
  /** Modules that are built but not published. */
  private static final Set<String> NOT_PUBLISHED = Set.of(
          "waitingroom-examples",
          "waitingroom-examples-spring-boot",
          "benchmarks",
          "waitingroom-simulation",
          "waitingroom-bom",
          "waitingroom-spring-boot4-test",
          "waitingroom-test-support");

  @Test
  void theBomManagesEveryPublishedModuleAtTheParentsVersion() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    Document parent = parse(root.resolve("pom.xml"));
    Document bom = parse(root.resolve("waitingroom-bom/pom.xml"));

    List<String> published = new ArrayList<>();
    for (String module : texts(parent.getDocumentElement(), "modules", "module")) {
      if (!NOT_PUBLISHED.contains(module)) {
        published.add(module);
      }
    }
    Element managed = child(child(bom.getDocumentElement(), "dependencyManagement"), "dependencies");
    List<String> inBom = new ArrayList<>();
    for (Element d : children(managed, "dependency")) {
      assertThat(text(d, "groupId")).isEqualTo("io.github.waitingroom");
      assertThat(text(d, "version")).isEqualTo("${project.version}");
      inBom.add(text(d, "artifactId"));
    }
    assertThat(inBom).containsExactlyInAnyOrderElementsOf(published);
    assertThat(text(bom.getDocumentElement(), "version")).isEqualTo(text(parent.getDocumentElement(), "version"));
    // No parent: it would hand the parent's third-party version pins to every importer.
    assertThat(children(bom.getDocumentElement(), "parent")).isEmpty();
  }

  private static Document parse(Path pom) throws Exception {
    assertThat(pom).exists();
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(Files.newInputStream(pom));
  }

  private static List<String> texts(Element parent, String list, String item) {
    List<String> out = new ArrayList<>();
    for (Element e : children(child(parent, list), item)) {
      out.add(e.getTextContent().trim());
    }
    return out;
  }

  private static String text(Element parent, String name) {
    return child(parent, name).getTextContent().trim();
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    assertThat(found).as("<%s> in <%s>", name, parent.getTagName()).hasSize(1);
    return found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node n = nodes.item(i);
      if (n instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }
}
