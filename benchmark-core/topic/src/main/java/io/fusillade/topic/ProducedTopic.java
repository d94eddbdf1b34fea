package io.fusillade.topic;

import io.fusillade.record.Counter;

/**
 * A topic ready to send to: its partitions known, its verifier and rate counters in place. Get it
 * from {@link TopicClient#topic(String)} before the load starts.
 *
 * @param name the topic
 * @param partitions its partition count
 * @param verifier its delivery verifier
 * @param messages acknowledged messages
 * @param bytes acknowledged value bytes
 */
public record ProducedTopic(
    String name, int partitions, DeliveryVerifier verifier, Counter messages, Counter bytes) {}
