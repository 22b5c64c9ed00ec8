package io.distlock.tck;

/**
 * Control over the store's server for the availability rules (§14): the kit stops the server, checks that clients
 * report {@link io.distlock.StoreUnavailableException} within a bounded time, then starts it again. Supplied by a
 * subclass whose fixture owns its server process (one started on a free port for the test, never a shared one).
 */
public interface StoreOutage {

    /** Stops (or pauses) the server so that clients cannot reach it. */
    void stop() throws Exception;

    /** Brings the server back on the same address. */
    void start() throws Exception;
}
