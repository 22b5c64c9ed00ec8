package io.distlock.redis;

import io.distlock.spi.Grant;
import io.distlock.spi.OwnerTokens;
import java.nio.charset.StandardCharsets;

/**
 * The value stored at a lock key: the holder's secret owner token, a {@code '|'}, and a description of the holder
 * ({@code pid@host thread}) that the admin view shows. Release and renew compare the whole value; the admin view
 * shows only the part after the token. A {@link RedisBackend} lease's handle is its value {@linkplain #encoded
 * encoded} once at acquire, a {@link SentBytes} that the release sends as it is: a process may hold many thousands of
 * leases, so a held lease keeps only these bytes (the lock's keys are encoded by each call that sends them, and the
 * value string is made only where one is needed: a renewal batch, a Cluster release).
 */
final class OwnerValue {

    /** {@link OwnerTokens#processDescription()} in UTF-8, encoded by the first {@link #encoded} call. */
    private static volatile byte[] processBytes;

    private OwnerValue() {
    }

    /**
     * The value for a new lease with {@code token}, held by the current thread of this process: the token, then
     * {@link OwnerTokens#holderDescription()}, built as one string.
     */
    static String of(String token) {
        return of(token, Thread.currentThread());
    }

    /** The value for a new lease with {@code token} taken on behalf of {@code holder} (a hand-over's receiver). */
    static String of(String token, Thread holder) {
        return token + "|" + OwnerTokens.holderDescription(holder);
    }

    /**
     * {@link #of(String, Thread)} encoded in UTF-8, written straight into one array: no string of the value or of
     * the holder description is made (the process part is encoded once).
     */
    static SentBytes encoded(String token, Thread holder) {
        byte[] process = processBytes();
        String thread = holder.getName();
        byte[] tokenBytes = isAscii(token) ? null : token.getBytes(StandardCharsets.UTF_8);
        byte[] threadBytes = isAscii(thread) ? null : thread.getBytes(StandardCharsets.UTF_8);
        int tokenLength = tokenBytes == null ? token.length() : tokenBytes.length;
        int threadLength = threadBytes == null ? thread.length() : threadBytes.length;
        byte[] value = new byte[tokenLength + 1 + process.length + 1 + threadLength];
        int at = put(token, tokenBytes, value, 0);
        value[at++] = '|';
        System.arraycopy(process, 0, value, at, process.length);
        at += process.length;
        value[at++] = ' ';
        put(thread, threadBytes, value, at);
        return new SentBytes(value);
    }

    /** The stored value of {@code grant}: its handle's bytes decoded, or the handle itself (Redlock's grants). */
    static String of(Grant grant) {
        return grant.handle() instanceof SentBytes held ? held.text() : (String) grant.handle();
    }

    /** {@link OwnerTokens#processDescription()} in UTF-8; it does not change, so it is encoded once. */
    private static byte[] processBytes() {
        byte[] p = processBytes;
        if (p == null) {
            p = OwnerTokens.processDescription().getBytes(StandardCharsets.UTF_8);
            processBytes = p;
        }
        return p;
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** Writes {@code s} at {@code at}: its {@code encoded} bytes, or, if null, its chars (all ASCII) one byte each. */
    private static int put(String s, byte[] encoded, byte[] into, int at) {
        if (encoded != null) {
            System.arraycopy(encoded, 0, into, at, encoded.length);
            return at + encoded.length;
        }
        for (int i = 0; i < s.length(); i++) {
            into[at++] = (byte) s.charAt(i);
        }
        return at;
    }

    /** The holder description inside a stored value, without the token. */
    static String owner(String value) {
        if (value == null) {
            return null;
        }
        int bar = value.indexOf('|');
        return bar < 0 ? "unknown" : value.substring(bar + 1);
    }
}
