package io.distlock.redis;

import io.distlock.spi.OwnerTokens;

/**
 * The value stored at a lock key: the holder's secret owner token, a {@code '|'}, and a description of the holder
 * ({@code pid@host thread}) that the admin view shows. Release and renew compare the whole value; the admin view
 * shows only the part after the token.
 */
final class OwnerValue {

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

    /** The holder description inside a stored value, without the token. */
    static String owner(String value) {
        if (value == null) {
            return null;
        }
        int bar = value.indexOf('|');
        return bar < 0 ? "unknown" : value.substring(bar + 1);
    }
}
