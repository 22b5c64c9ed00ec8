package io.distlock.jdbc;

/**
 * Wake-ups across processes, where the database offers a way to send them: told when a local waiter found a lock
 * held and when this store released a lock, it lets waiters elsewhere retry at once instead of at their next poll.
 * Polling stays the safety net, so a lost wake-up costs one poll, never a hang.
 */
interface RemoteWakeups extends AutoCloseable {

    /** None: other processes notice releases at their next poll. */
    RemoteWakeups NONE = new RemoteWakeups() {
        @Override
        public void waiting(String name) {
        }

        @Override
        public void released(String name) {
        }

        @Override
        public void close() {
        }
    };

    /** A waiter of this store found {@code name} held and waits for it. */
    void waiting(String name);

    /** This store released {@code name}. */
    void released(String name);

    @Override
    void close();
}
