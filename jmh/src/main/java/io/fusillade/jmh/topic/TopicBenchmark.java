package io.fusillade.jmh.topic;

import io.fusillade.topic.DeliveryVerifier;
import io.fusillade.topic.MessageStamp;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The per-message costs the topic protocol adds to a Kafka send and receive: encoding and decoding
 * the stamp header, and the delivery verifier's acknowledgement and receipt marks (lock-free bit
 * sets). Run: {@code java -jar jmh/target/benchmarks.jar TopicBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class TopicBenchmark {
  private DeliveryVerifier verifier;
  private DeliveryVerifier.Stream stream;
  private long producer;
  private long sequence;
  private byte[] stamp;

  @Setup
  public void setUp() {
    verifier = new DeliveryVerifier("bench");
    producer = verifier.producerId(0);
    stream = verifier.stream(producer, 0);
    stamp = MessageStamp.encode(producer, 12345, System.nanoTime());
  }

  @Benchmark
  public byte[] encodeStamp() {
    return MessageStamp.encode(producer, sequence++, System.nanoTime());
  }

  @Benchmark
  public MessageStamp decodeStamp() {
    return MessageStamp.decode(stamp);
  }

  /**
   * One message's verifier work: acknowledged, then received (numbers wrap at 2^24: 4 MiB of bits).
   */
  @Benchmark
  public void acknowledgeAndReceive() {
    long s = sequence++ & 0xff_ffffL;
    stream.acknowledged(s);
    verifier.received(new MessageStamp(producer, s, 0), 0);
  }
}
