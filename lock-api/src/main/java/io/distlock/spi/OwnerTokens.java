package io.distlock.spi;

import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Owner tokens and owner descriptions. A token is 128 bits from {@link SecureRandom}: unguessable, so no client can
 * release or renew another's lock by accident or on purpose.
 */
public final class OwnerTokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();
    private static volatile String description;

    private OwnerTokens() {
    }

    /** A new random owner token: 32 hex characters. */
    public static String newToken() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HEX.formatHex(bytes);
    }

    /**
     * How a holder is described to operators (admin views, lock rows): {@code pid@host} and the calling thread's
     * name. Never used to prove ownership, and it holds no token.
     */
    public static String holderDescription() {
        return holderDescription(Thread.currentThread());
    }

    /**
     * As {@link #holderDescription()}, for a lock taken on behalf of {@code holder} rather than the calling thread (a
     * hand-over runs on the releasing thread).
     */
    public static String holderDescription(Thread holder) {
        return processDescription() + " " + holder.getName();
    }

    /** {@code pid@host} of this process, for operators; never used to prove ownership. */
    public static String processDescription() {
        String d = description;
        if (d == null) {
            d = ManagementFactory.getRuntimeMXBean().getName();
            description = d;
        }
        return d;
    }
}
