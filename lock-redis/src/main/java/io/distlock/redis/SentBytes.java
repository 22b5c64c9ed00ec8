package io.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import redis.clients.jedis.args.Rawable;

/**
 * Bytes sent to Redis as they are: a {@link Rawable} that, unlike the ones Jedis makes from a {@code byte[]} or a
 * {@code String}, keeps the array it is given instead of copying it, so a key or value encoded once is sent by every
 * command without a copy per command. The array must not change afterwards.
 */
final class SentBytes implements Rawable {

    private final byte[] bytes;

    SentBytes(byte[] bytes) {
        this.bytes = bytes;
    }

    /** {@code text} in UTF-8. */
    static SentBytes of(String text) {
        return new SentBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The bytes as UTF-8 text: a new string at each call. */
    String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] getRaw() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SentBytes other && Arrays.equals(other.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** The length only: what is sent may be a key or a value holding an owner token. */
    @Override
    public String toString() {
        return "SentBytes[" + bytes.length + " bytes]";
    }
}
