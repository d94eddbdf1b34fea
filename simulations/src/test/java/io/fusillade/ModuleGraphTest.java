package io.fusillade;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code src/site/architecture.dot} (and the picture drawn from it) is the module graph of the poms
 * as they are, not as someone once drew it.
 */
class ModuleGraphTest {
  @Test
  void theArchitecturePictureIsDrawnFromThePoms() throws Exception {
    Path root = ModuleGraph.root();
    assertThat(Files.readString(root.resolve("src/site/architecture.dot")))
        .as(
            "src/site/architecture.dot is not the poms' module graph: run io.fusillade.ModuleGraph,"
                + " then dot -Tsvg architecture.dot -o architecture.svg")
        .isEqualTo(ModuleGraph.dot(root));
  }

  @Test
  void anEdgeThatALongerPathImpliesIsLeftOut() {
    Map<String, Set<String>> edges =
        Map.of("cli", Set.of("gatling", "record"), "gatling", Set.of("record"), "record", Set.of());
    assertThat(ModuleGraph.edgesForTest(edges))
        .containsEntry("cli", Set.of("gatling"))
        .containsEntry("gatling", Set.of("record"));
  }
}
