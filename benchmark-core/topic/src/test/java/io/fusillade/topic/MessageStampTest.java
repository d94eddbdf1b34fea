package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MessageStampTest {
  @Test
  void roundTripsEveryBitOfItsThreeFields() {
    MessageStamp stamp = new MessageStamp(0x8000_0001_0000_0002L, -1L, Long.MIN_VALUE + 7);
    byte[] bytes = stamp.encode();
    assertThat(bytes).hasSize(MessageStamp.LENGTH);
    assertThat(MessageStamp.decode(bytes)).isEqualTo(stamp);
    assertThat(MessageStamp.decode(MessageStamp.encode(5, 6, 7)))
        .isEqualTo(new MessageStamp(5, 6, 7));
  }

  @Test
  void isBigEndianSoOtherToolsCanReadIt() {
    byte[] bytes = MessageStamp.encode(1, 2, 3);
    assertThat(bytes[7]).isEqualTo((byte) 1);
    assertThat(bytes[15]).isEqualTo((byte) 2);
    assertThat(bytes[23]).isEqualTo((byte) 3);
  }

  @Test
  void somethingElseIsNotAStamp() {
    assertThat(MessageStamp.decode(null)).isNull();
    assertThat(MessageStamp.decode(new byte[23])).isNull();
    assertThat(MessageStamp.decode(new byte[25])).isNull();
  }
}
