package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A resource started early is taken once, as if the taker had started it. */
class EarlyValueTest {
  private record Resource(String name) implements AutoCloseable {
    @Override
    public void close() {}
  }

  @Test
  void theTakerWaitsForTheStartAndGetsItsResource() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<String> thread = new AtomicReference<>();
    EarlyValue<Resource> early =
        EarlyValue.begin(
            "early-test",
            () -> {
              thread.set(Thread.currentThread().getName());
              release.await();
              return new Resource("server");
            });
    Thread releaser = new Thread(release::countDown);
    releaser.start();
    assertThat(early.take()).isEqualTo(new Resource("server"));
    assertThat(thread.get()).isEqualTo("early-test");
  }

  @Test
  void aFailedStartFailsTheTakerWithTheStartsOwnException() {
    IllegalStateException failure = new IllegalStateException("postgres did not start: port 5432");
    EarlyValue<Resource> early =
        EarlyValue.begin(
            "early-test",
            () -> {
              throw failure;
            });
    assertThatThrownBy(early::take).isSameAs(failure);
  }

  @Test
  void aStartThatNeedsNothingGivesNullAndAValueIsTakenOnce() {
    EarlyValue<Resource> early = EarlyValue.begin("early-test", () -> null);
    assertThat(early.take()).isNull();
    assertThatThrownBy(early::take).isInstanceOf(IllegalStateException.class);
  }
}
