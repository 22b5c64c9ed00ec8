package io.distlock.spi;

/**
 * How a backend with session-bound leases tells the core that its connection changed. The core turns these into
 * lease states and lost-lease signals.
 */
public interface LeaseEvents {

    /** The connection is interrupted; leases may or may not still be held. */
    void suspended();

    /** The connection is back with the same session; leases are held again. */
    void reconnected();

    /**
     * The session is gone: every lease of this backend is lost, also one whose grant the core has not registered yet.
     * The core checks a grant whose store call began before this event in the store ({@link LockBackend#renew}, which
     * on a session-bound store must report a grant of an ended session lost) when it registers it, and loses it
     * unless the store still has it (an acquire that waited across the loss may hold in the next session); so the
     * backend need not also report {@link #lost} for each grant it made.
     */
    void sessionLost(String reason);

    /** One lease is gone (for example its node was deleted behind its back). */
    void lost(Grant grant, String reason);

    /** Events that go nowhere, until the core attaches itself. */
    LeaseEvents NONE = new LeaseEvents() {
        @Override
        public void suspended() {
        }

        @Override
        public void reconnected() {
        }

        @Override
        public void sessionLost(String reason) {
        }

        @Override
        public void lost(Grant grant, String reason) {
        }
    };
}
