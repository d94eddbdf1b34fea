package io.fusillade.gatling.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The check idiom every protocol shares, on a map as the response: no server, no Gatling run. */
class CheckTest {
  private static final Map<String, Object> RESPONSE = Map.of("id", 42L, "status", "paid");
  private static final Session SESSION =
      Session$.MODULE$.apply("test", 1L, null).set("want", "paid").set("audit", false);

  private static Check<Map<String, Object>, Object> field(String key) {
    return Check.of("field(" + key + ")", Set.of(key), r -> Optional.ofNullable(r.get(key)));
  }

  private static String verify(Check<Map<String, Object>, ?> check) {
    return check.verify(RESPONSE, SESSION, new Saves());
  }

  @Test
  void withoutAValidationACheckWantsTheValue() {
    assertThat(verify(field("id"))).isNull();
    assertThat(verify(field("nope"))).isEqualTo("field(nope).exists: found nothing");
    assertThat(verify(field("nope").notExists())).isNull();
  }

  @Test
  void valuesCompareAsNumbersWhenBothAreElseAsText() {
    assertThat(verify(field("id").is(42))).isNull();
    assertThat(verify(field("id").is("42"))).isNull();
    assertThat(verify(field("id").is(43))).isEqualTo("field(id).is(43): found 42");
    assertThat(verify(field("status").is("paid"))).isNull();
    assertThat(verify(field("status").not("paid")))
        .isEqualTo("field(status).not(paid): found paid");
    assertThat(verify(field("status").in("new", "paid"))).isNull();
    assertThat(verify(field("status").in(List.of("new"))))
        .isEqualTo("field(status).in[new]: found paid");
  }

  @Test
  void comparisonsAddUp() {
    assertThat(verify(field("id").gte(1).lte(50))).isNull();
    assertThat(verify(field("id").gt(42))).isEqualTo("field(id).gt(42): found 42");
    assertThat(verify(field("id").gte(1).lt(10))).isEqualTo("field(id).lt(10): found 42");
  }

  @Test
  void expectedValuesMayComeFromTheSession() {
    assertThat(verify(field("status").isEL("#{want}"))).isNull();
    assertThat(verify(field("status").is(session -> session.getString("want")))).isNull();
    assertThat(verify(field("status").isEL("#{missing}")))
        .startsWith("field(status).is(#{missing}): ")
        .contains("missing");
  }

  @Test
  void transformComesBeforeTheValidations() {
    assertThat(verify(field("status").transform(v -> v.toString().toUpperCase()).is("PAID")))
        .isNull();
    assertThatThrownBy(() -> field("id").is(1).transform(v -> v))
        .hasMessageContaining("transform(...) comes before the validations");
    assertThat(verify(field("status").transform(v -> v.toString().length()).gte(4))).isNull();
  }

  @Test
  void saveAsKeepsTheValueUntilTheRequestIsOk() {
    Saves saves = new Saves();
    Checks<Map<String, Object>> checks =
        Checks.<Map<String, Object>>none().and(List.of(field("id").saveAs("orderId"), field("x")));
    assertThat(checks.saves()).isTrue();
    assertThat(checks.needs()).containsExactlyInAnyOrder("id", "x");
    assertThat(checks.verify(RESPONSE, SESSION, saves)).isEqualTo("field(x).exists: found nothing");
    Session saved = saves.applyTo(SESSION);
    assertThat(saved.attributes().get("orderId").get()).isEqualTo(42L);
    assertThatThrownBy(() -> field("id").saveAs(" ")).hasMessageContaining("saveAs needs");
  }

  @Test
  void checkIfRunsTheCheckOnlyWhereTheConditionHolds() {
    assertThat(verify(field("nope").checkIf("#{audit}"))).isNull();
    assertThat(verify(field("nope").checkIf(session -> true))).isNotNull();
    CheckIf<Map<String, Object>, List<Check<Map<String, Object>, ?>>> conditional =
        new CheckIf<>(CheckIf.el("#{audit}"), checks -> checks);
    List<Check<Map<String, Object>, ?>> checks = conditional.then(field("nope"), field("x"));
    assertThat(checks).hasSize(2).allSatisfy(c -> assertThat(verify(c)).isNull());
  }

  @Test
  void anExtractorThatThrowsFailsTheCheckWithItsMessage() {
    Check<Map<String, Object>, Object> broken =
        Check.of(
            "broken",
            Set.of(),
            r -> {
              throw new IllegalStateException("not JSON");
            });
    assertThat(verify(broken)).isEqualTo("broken could not be extracted: not JSON");
  }
}
