package io.distlock.spi;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cheap source of owner tokens for one store: a 96-bit {@link SecureRandom} prefix drawn once, followed by a
 * counter. Tokens are distinct within the sequence and, with overwhelming probability, from every other process's;
 * nobody who has not seen a token of this sequence can guess one. Unlike {@link OwnerTokens#newToken()} it costs no
 * {@code SecureRandom} call (and no lock shared by every thread) per acquisition; the price is that whoever reads
 * one token of the sequence can predict the next ones, which gives nothing that reading the store did not already
 * give (the store holds every current token).
 */
public final class OwnerTokenSequence {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String prefix;
    private final AtomicLong counter = new AtomicLong();

    /** A new sequence with a fresh random prefix. */
    public OwnerTokenSequence() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        this.prefix = HexFormat.of().formatHex(bytes);
    }

    /** The next token: 24 hex characters of the prefix, then the counter in hex. */
    public String next() {
        return prefix + Long.toHexString(counter.incrementAndGet());
    }
}
