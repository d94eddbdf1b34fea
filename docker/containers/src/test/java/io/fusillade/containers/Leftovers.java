package io.fusillade.containers;

import com.github.dockerjava.api.DockerClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.testcontainers.DockerClientFactory;

/**
 * What this test JVM left in the engine: its containers (running or not) and networks, found by the
 * session label Testcontainers puts on everything it creates. Without Ryuk (no image for it where
 * no registry answers) nothing else removes them, so each test class that starts containers asserts
 * this is empty after it closed them.
 */
final class Leftovers {
  private Leftovers() {}

  /** "container NAME (IMAGE, STATE)" and "network NAME" of this session, empty when none. */
  static List<String> ofThisSession() {
    DockerClient client = DockerClientFactory.lazyClient();
    Map<String, String> session =
        Map.of(DockerClientFactory.TESTCONTAINERS_SESSION_ID_LABEL, DockerClientFactory.SESSION_ID);
    List<String> left = new ArrayList<>();
    client
        .listContainersCmd()
        .withShowAll(true)
        .withLabelFilter(session)
        .exec()
        .forEach(
            c ->
                left.add(
                    "container "
                        + String.join(",", c.getNames())
                        + " ("
                        + c.getImage()
                        + ", "
                        + c.getState()
                        + ")"));
    client.listNetworksCmd().exec().stream()
        .filter(
            n ->
                n.getLabels() != null
                    && DockerClientFactory.SESSION_ID.equals(
                        n.getLabels().get(DockerClientFactory.TESTCONTAINERS_SESSION_ID_LABEL)))
        .forEach(n -> left.add("network " + n.getName()));
    return left;
  }
}
