package io.distlock.spi;

import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Owner tokens and owner descriptions. A token is unguessable, so no client can release or renew another's lock by
 * accident or on purpose: 128 bits from {@link SecureRandom} ({@link #newToken()}), or, where a store takes many, the
 * next of a {@link Sequence}.
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
     * A cheap source of owner tokens for one store: a 96-bit {@link SecureRandom} prefix drawn once, followed by a
     * counter. Tokens are distinct within the sequence and, with overwhelming probability, from every other process's;
     * nobody who has not seen a token of this sequence can guess one. Unlike {@link #newToken()} it costs no
     * {@code SecureRandom} call (and no lock shared by every thread) per acquisition; the price is that whoever reads
     * one token of the sequence can predict the next ones, which gives nothing that reading the store did not already
     * give (the store holds every current token).
     */
    public static final class Sequence {

        private final String prefix;
        private final AtomicLong counter = new AtomicLong();

        /** A new sequence with a fresh random prefix. */
        public Sequence() {
            byte[] bytes = new byte[12];
            RANDOM.nextBytes(bytes);
            this.prefix = HEX.formatHex(bytes);
        }

        /** The next token: 24 hex characters of the prefix, then the counter in hex. */
        public String next() {
            return prefix + Long.toHexString(counter.incrementAndGet());
        }
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
