package io.fusillade.sql.pg;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The client side of PostgreSQL's password authentications: md5, and SCRAM-SHA-256 (RFC 5802 and
 * 7677, without channel binding, as a plain TCP connection has none). The password is only ever
 * used to compute proofs; it is not kept in any message or exception text.
 */
final class PgAuth {
  private PgAuth() {}

  /** The md5 method's answer: "md5" + md5(md5(password + user) + salt), in hex. */
  static String md5(String user, String password, byte[] salt) {
    try {
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      String inner = HexFormat.of().formatHex(md5.digest(utf8(password + user)));
      md5.update(utf8(inner));
      md5.update(salt);
      return "md5" + HexFormat.of().formatHex(md5.digest());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("MD5 is missing from this JVM", e);
    }
  }

  /** One SCRAM-SHA-256 exchange: the first message, then the answer to the server's challenge. */
  static final class Scram {
    static final String MECHANISM = "SCRAM-SHA-256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String password;
    private final String clientNonce;
    private String authMessage;
    private byte[] saltedPassword;

    Scram(String password) {
      this.password = password;
      byte[] nonce = new byte[18];
      RANDOM.nextBytes(nonce);
      this.clientNonce = Base64.getEncoder().encodeToString(nonce);
    }

    /** client-first-message: no channel binding; PostgreSQL takes the user from the startup. */
    byte[] first() {
      return utf8("n,," + firstBare());
    }

    private String firstBare() {
      return "n=,r=" + clientNonce;
    }

    /**
     * client-final-message for the server-first-message {@code r=...,s=...,i=...}.
     *
     * @throws IllegalStateException when the server's message is malformed or its nonce is not an
     *     extension of ours
     */
    byte[] finalMessage(byte[] serverFirst) {
      String message = new String(serverFirst, StandardCharsets.UTF_8);
      String nonce = attribute(message, 'r');
      byte[] salt = Base64.getDecoder().decode(attribute(message, 's'));
      int iterations = Integer.parseInt(attribute(message, 'i'));
      if (!nonce.startsWith(clientNonce)) {
        throw new IllegalStateException("SCRAM: the server's nonce does not extend ours");
      }
      saltedPassword = hi(utf8(password), salt, iterations);
      String withoutProof = "c=biws,r=" + nonce; // biws = base64("n,,")
      authMessage = firstBare() + "," + message + "," + withoutProof;
      byte[] clientKey = hmac(saltedPassword, "Client Key");
      byte[] storedKey = sha256(clientKey);
      byte[] signature = hmac(storedKey, authMessage);
      byte[] proof = new byte[clientKey.length];
      for (int i = 0; i < proof.length; i++) {
        proof[i] = (byte) (clientKey[i] ^ signature[i]);
      }
      return utf8(withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof));
    }

    /** Whether the server-final-message proves that the server knows the password too. */
    boolean verify(byte[] serverFinal) {
      String message = new String(serverFinal, StandardCharsets.UTF_8);
      byte[] expected = hmac(hmac(saltedPassword, "Server Key"), authMessage);
      byte[] actual = Base64.getDecoder().decode(attribute(message, 'v'));
      return MessageDigest.isEqual(expected, actual);
    }

    private static String attribute(String message, char name) {
      for (String part : message.split(",")) {
        if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
          return part.substring(2);
        }
      }
      throw new IllegalStateException("SCRAM: the server's message has no " + name + "=");
    }

    /** Hi() of RFC 5802: PBKDF2 with HMAC-SHA-256 and one block. */
    private static byte[] hi(byte[] password, byte[] salt, int iterations) {
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(password, "HmacSHA256"));
        mac.update(salt);
        byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
        byte[] result = u.clone();
        for (int i = 1; i < iterations; i++) {
          u = mac.doFinal(u);
          for (int j = 0; j < result.length; j++) {
            result[j] ^= u[j];
          }
        }
        return result;
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
      }
    }

    private static byte[] hmac(byte[] key, String data) {
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
        return mac.doFinal(utf8(data));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
      }
    }

    private static byte[] sha256(byte[] data) {
      try {
        return MessageDigest.getInstance("SHA-256").digest(data);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("SHA-256 is missing from this JVM", e);
      }
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
