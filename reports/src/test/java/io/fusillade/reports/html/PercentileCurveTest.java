package io.fusillade.reports.html;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.record.Latencies;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PercentileCurveTest {
  @Test
  void theCurveRisesFromTheMinimumAtZeroToTheMaximumAtTheFinestPercentile() {
    Histogram h = Latencies.newHistogram();
    for (int i = 1; i <= 10_000; i++) {
      h.recordValue(i); // 1 µs to 10 ms, evenly
    }
    List<double[]> points = PercentileCurve.points(h);
    assertThat(points.get(0)[0]).isEqualTo(1.0); // 0%: 1/(1-0)
    assertThat(points.get(0)[1]).isCloseTo(0.001, within(1e-6));
    double[] last = points.get(points.size() - 1);
    assertThat(last[0]).isCloseTo(10_000, within(1e-6)); // 1 - 1/10000 = 99.99%
    assertThat(last[1]).isCloseTo(h.getMaxValue() / 1000.0, within(0.01));
    for (int i = 1; i < points.size(); i++) {
      assertThat(points.get(i)[0]).isGreaterThan(points.get(i - 1)[0]);
      assertThat(points.get(i)[1]).isGreaterThanOrEqualTo(points.get(i - 1)[1]);
    }
    // the point at 99%: x = 100, 9.9 ms
    double[] p99 =
        points.stream().filter(p -> Math.abs(p[0] - 100) < 1e-6).findFirst().orElseThrow();
    assertThat(p99[1]).isCloseTo(9.9, within(0.02));
  }

  @Test
  void anEmptyHistogramHasNoCurve() {
    assertThat(PercentileCurve.points(Latencies.newHistogram())).isEmpty();
  }

  @Test
  void percentileLabels() {
    assertThat(SvgChart.percentileLabel(1)).isEqualTo("0%");
    assertThat(SvgChart.percentileLabel(10)).isEqualTo("90%");
    assertThat(SvgChart.percentileLabel(100)).isEqualTo("99%");
    assertThat(SvgChart.percentileLabel(1000)).isEqualTo("99.9%");
    assertThat(SvgChart.percentileLabel(100_000)).isEqualTo("99.999%");
    assertThat(SvgChart.percentilePosition(90, 1000)).isCloseTo(10, within(1e-9));
    assertThat(SvgChart.percentilePosition(100, 1000)).isCloseTo(1000, within(1e-9));
  }
}
