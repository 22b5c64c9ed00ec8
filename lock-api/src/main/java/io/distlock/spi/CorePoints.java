package io.distlock.spi;

/**
 * For test backends only (the TCK's interleaving explorer): a {@link LockBackend} that also implements this is told
 * when a core thread reaches a point where it races another thread with no store call in between, so a scheduler that
 * runs one thread at a time can stop it there. The core looks for it once per store; other backends pay nothing.
 */
public interface CorePoints {

    /**
     * A core thread reached {@code point} for the lease of {@code grant}; the call may block (a yield point). Points:
     * {@code "renewal-claim"}, a background renewal that saw the hold active and is about to claim its store calls.
     */
    void reached(String point, Grant grant);
}
