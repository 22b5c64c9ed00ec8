package io.distlock.zookeeper;

import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import org.apache.zookeeper.KeeperException;

/**
 * Turns what Curator and ZooKeeper throw into distlock's exceptions: connection trouble becomes
 * {@link StoreUnavailableException} (never "the lock is taken"), a refused ACL a {@link LockException} that says so,
 * a closed client {@link IllegalStateException}. Messages name the store by its redacted URI only.
 */
final class ZooKeeperErrors {

    private final String store;

    ZooKeeperErrors(String redactedUri) {
        this.store = redactedUri;
    }

    /** The exception to throw for {@code e}, raised while doing {@code what}. Interrupts are kept by the caller. */
    RuntimeException translate(Exception e, String what) {
        if (e instanceof KeeperException ke) {
            return switch (ke.code()) {
                case CONNECTIONLOSS, OPERATIONTIMEOUT, SESSIONEXPIRED, SESSIONMOVED, REQUESTTIMEOUT, NOTREADONLY,
                        THROTTLEDOP -> new StoreUnavailableException("ZooKeeper store " + store
                                + " unavailable while " + what + ": " + ke.code(), e);
                case NOAUTH, AUTHFAILED, INVALIDACL -> new LockException("ZooKeeper store " + store + " refused "
                        + what + " (" + ke.code() + "): the lock's nodes belong to another user, or the "
                        + "credentials are wrong", e);
                default -> new LockException("ZooKeeper store " + store + " failed while " + what + ": "
                        + ke.code(), e);
            };
        }
        if (e instanceof IllegalStateException) {
            return new IllegalStateException("store " + store + " is closed", e);
        }
        if (e instanceof RuntimeException re) {
            return re;
        }
        return new LockException("ZooKeeper store " + store + " failed while " + what + ": " + e, e);
    }

    String store() {
        return store;
    }
}
