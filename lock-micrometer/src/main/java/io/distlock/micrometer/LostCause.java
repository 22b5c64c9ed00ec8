package io.distlock.micrometer;

import io.distlock.LockLostException;
import java.util.Locale;

/**
 * Why a lease was lost, as the {@code cause} tag of {@code distlock.lost}. Read from the loss's message, which the
 * core writes in a fixed form; {@link #OTHER} for a message this does not recognise.
 */
enum LostCause {
    /** Its lease time ran out without a successful renewal. */
    EXPIRED,
    /** The store no longer had it: deleted by an operator, taken over after expiry, its node gone. */
    REMOVED,
    /** The store session behind it ended (ZooKeeper). */
    SESSION,
    /** Its store was closed while it was held. */
    STORE_CLOSED,
    /** A reason not recognised. */
    OTHER;

    String tag() {
        return name().toLowerCase(Locale.ROOT);
    }

    static LostCause of(LockLostException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (m.contains("store was closed")) {
            return STORE_CLOSED;
        }
        if (m.contains("ran out without renewal")) {
            return EXPIRED;
        }
        if (m.contains("session")) {
            return SESSION;
        }
        if (m.contains("no longer had it") || m.contains("deleted") || m.contains("gone")) {
            return REMOVED;
        }
        return OTHER;
    }
}
