package io.fusillade.record;

import io.fusillade.FusilladeException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Which messages of a topic one injector saw acknowledged and received, message by message: the
 * file {@value #FILE} beside {@code run.json} of an injector that is one of several ({@code
 * fusillade run --injectors N}), from which their delivery is verified exactly once their records
 * are together ({@link #merge}).
 *
 * <p>Why not counts: the injectors' consumers share one group, so the messages of one injector's
 * producers are read by the others' consumers. No injector alone can tell a lost message from one
 * another injector read, nor a duplicate read by two injectors; the union of their bit sets can.
 *
 * <p>The file is gzip'd binary: per topic its run prefix, its foreign receipts and its streams (one
 * producer and one partition), each with its counts of duplicated and out-of-order receipts and two
 * bit sets of sequence numbers, acknowledged and received. Dense sets (every message acknowledged,
 * every one received) compress to almost nothing; the worst case is one bit per message and side.
 */
public final class DeliveryBits {
  /** The file's name in a run directory. */
  public static final String FILE = "delivery-bits.gz";

  private static final int MAGIC = 0x46444231; // "FDB1"

  private DeliveryBits() {}

  /**
   * One producer's messages to one partition, as one injector saw them.
   *
   * @param producerId the producer's id (run prefix and index)
   * @param partition the partition
   * @param acknowledged the sequence numbers the broker acknowledged to this injector
   * @param received the sequence numbers this injector's consumers received
   * @param duplicated receipts this injector had of a message it had already received
   * @param outOfOrder first receipts this injector had after a later message of the stream
   */
  public record StreamBits(
      long producerId,
      int partition,
      BitSet acknowledged,
      BitSet received,
      long duplicated,
      long outOfOrder) {}

  /**
   * One topic's streams, as one injector saw them.
   *
   * @param topic the topic
   * @param foreign receipts without a stamp of this run
   * @param streams per producer and partition
   */
  public record TopicBits(String topic, long foreign, List<StreamBits> streams) {
    /** Copies the list. */
    public TopicBits {
      streams = List.copyOf(streams);
    }
  }

  /**
   * Writes the file into a run directory.
   *
   * @param directory the run directory
   * @param topics one entry per verified topic
   * @throws IOException when it cannot be written
   */
  public static void write(Path directory, List<TopicBits> topics) throws IOException {
    Path file = directory.resolve(FILE);
    Path writing = directory.resolve(FILE + ".tmp");
    try (DataOutputStream out =
        new DataOutputStream(
            new BufferedOutputStream(new GZIPOutputStream(Files.newOutputStream(writing))))) {
      out.writeInt(MAGIC);
      out.writeInt(topics.size());
      for (TopicBits t : topics) {
        out.writeUTF(t.topic());
        out.writeLong(t.foreign());
        out.writeInt(t.streams().size());
        for (StreamBits s : t.streams()) {
          out.writeLong(s.producerId());
          out.writeInt(s.partition());
          out.writeLong(s.duplicated());
          out.writeLong(s.outOfOrder());
          writeSet(out, s.acknowledged());
          writeSet(out, s.received());
        }
      }
    }
    // whole or absent: a reader never takes a file cut short for the bits of a lost message
    Files.move(
        writing,
        file,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * Reads the file of a run directory.
   *
   * @param directory the run directory
   * @return by topic; empty when the directory has no such file (a run of one injector)
   * @throws FusilladeException when the file is there and cannot be read
   */
  public static Optional<Map<String, TopicBits>> read(Path directory) {
    Path file = directory.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try (DataInputStream in =
        new DataInputStream(
            new BufferedInputStream(new GZIPInputStream(Files.newInputStream(file))))) {
      if (in.readInt() != MAGIC) {
        throw new IOException("not a delivery bits file");
      }
      Map<String, TopicBits> topics = new LinkedHashMap<>();
      int count = in.readInt();
      for (int t = 0; t < count; t++) {
        String topic = in.readUTF();
        long foreign = in.readLong();
        int streams = in.readInt();
        List<StreamBits> list = new ArrayList<>(streams);
        for (int i = 0; i < streams; i++) {
          long producer = in.readLong();
          int partition = in.readInt();
          long duplicated = in.readLong();
          long outOfOrder = in.readLong();
          BitSet acked = readSet(in);
          BitSet received = readSet(in);
          list.add(new StreamBits(producer, partition, acked, received, duplicated, outOfOrder));
        }
        topics.put(topic, new TopicBits(topic, foreign, list));
      }
      return Optional.of(topics);
    } catch (IOException e) {
      throw new FusilladeException(
          file + ": cannot be read as delivery bits: " + e.getMessage(), e);
    }
  }

  /**
   * The delivery of one topic from every injector's bits: per stream, the union of what each
   * injector's consumers received against what the producing injector saw acknowledged.
   *
   * <ul>
   *   <li><b>received</b>: messages received by at least one injector;
   *   <li><b>lost</b>: acknowledged and received by none;
   *   <li><b>duplicated</b>: each injector's own repeated receipts, plus every receipt of a message
   *       by a second injector (a partition read again after it moved between injectors);
   *   <li><b>out of order</b>: each injector's own (the order between two injectors' receipts has
   *       no common clock to be judged on);
   *   <li><b>received unacknowledged</b>: received by some injector, acknowledged to none.
   * </ul>
   *
   * @param injectors the topic's bits, one per injector
   * @return the counts, verified (the caller says otherwise when an injector did not drain)
   */
  public static DeliveryCounts merge(List<TopicBits> injectors) {
    Map<Long, Map<Integer, List<StreamBits>>> byStream = new TreeMap<>();
    long foreign = 0;
    for (TopicBits t : injectors) {
      foreign += t.foreign();
      for (StreamBits s : t.streams()) {
        byStream
            .computeIfAbsent(s.producerId(), p -> new TreeMap<>())
            .computeIfAbsent(s.partition(), p -> new ArrayList<>())
            .add(s);
      }
    }
    List<DeliveryCounts.Stream> all = new ArrayList<>();
    long unacknowledged = 0;
    for (Map.Entry<Long, Map<Integer, List<StreamBits>>> producer : byStream.entrySet()) {
      for (Map.Entry<Integer, List<StreamBits>> partition : producer.getValue().entrySet()) {
        BitSet acked = new BitSet();
        BitSet received = new BitSet();
        long receipts = 0;
        long duplicated = 0;
        long outOfOrder = 0;
        for (StreamBits s : partition.getValue()) {
          acked.or(s.acknowledged());
          received.or(s.received());
          receipts += s.received().cardinality();
          duplicated += s.duplicated();
          outOfOrder += s.outOfOrder();
        }
        long distinct = received.cardinality();
        BitSet lost = (BitSet) acked.clone();
        lost.andNot(received);
        BitSet unacked = (BitSet) received.clone();
        unacked.andNot(acked);
        unacknowledged += unacked.cardinality();
        all.add(
            new DeliveryCounts.Stream(
                producer.getKey() & 0xffffffffL,
                partition.getKey(),
                new DeliveryCounts.Counts(
                    acked.cardinality(),
                    distinct,
                    lost.cardinality(),
                    duplicated + receipts - distinct,
                    outOfOrder)));
      }
    }
    all.sort(
        Comparator.comparingLong(DeliveryCounts.Stream::producer)
            .thenComparingInt(DeliveryCounts.Stream::partition));
    return DeliveryCounts.of(all, unacknowledged, foreign);
  }

  private static void writeSet(DataOutputStream out, BitSet set) throws IOException {
    long[] words = set.toLongArray();
    out.writeInt(words.length);
    for (long w : words) {
      out.writeLong(w);
    }
  }

  private static BitSet readSet(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > (1 << 26)) {
      throw new IOException("a bit set of " + length + " words");
    }
    long[] words = new long[length];
    for (int i = 0; i < length; i++) {
      words[i] = in.readLong();
    }
    return BitSet.valueOf(words);
  }
}
