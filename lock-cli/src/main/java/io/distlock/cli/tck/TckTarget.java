package io.distlock.cli.tck;

import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.StoreOutage;
import java.time.Duration;

/**
 * The store the {@code tck} command is checking, handed to {@link UriStoreTck} (which JUnit instantiates itself).
 * Set before a run and cleared after; one run at a time per JVM.
 *
 * @param uri the store URI every client opens
 * @param capabilities what the store can do
 * @param unreachableUri a URI of the same kind with no server behind it, or null
 * @param outage control over a server this command started itself (the embedded ZooKeeper), or null
 * @param operationTimeout the longest one operation of a client of this store takes before it gives up, or null
 *        when the command cannot know it (a URI given on the command line: the kit's loose default applies)
 */
public record TckTarget(String uri, StoreCapabilities capabilities, String unreachableUri, StoreOutage outage,
        Duration operationTimeout) {

    private static volatile TckTarget current;

    /** Makes {@code target} the store under test. */
    static void set(TckTarget target) {
        current = target;
    }

    /** Clears the store under test. */
    static void clear() {
        current = null;
    }

    /**
     * The store under test.
     *
     * @throws IllegalStateException if no run is in progress
     */
    static TckTarget current() {
        TckTarget target = current;
        if (target == null) {
            throw new IllegalStateException("UriStoreTck runs only from 'distlock tck --store URI'");
        }
        return target;
    }
}
