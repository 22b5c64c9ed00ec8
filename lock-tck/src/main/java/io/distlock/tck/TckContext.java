package io.distlock.tck;

import io.distlock.Features;
import io.distlock.LockStore;
import java.time.Duration;

/** What a rule needs from the store under test: clients, unique names and the declared capabilities. */
public interface TckContext {

    /** A new independent client, closed by the kit after the test. */
    LockStore client();

    /** A lock name unique to this test run, ending in {@code suffix}. */
    String name(String suffix);

    /** What the kit is told of the store beyond its features: other JVMs, expiry margin. */
    StoreCapabilities capabilities();

    /** What the store under test states of itself ({@link LockStore#features()}), read from one of its clients. */
    Features features();

    /** A URI for clients in other JVMs, or null. */
    String storeUri();

    /** Server control for availability rules, or null. */
    StoreOutage outage();

    /** A hand on the store's fencing state for the tampering rules, or null. */
    FenceStateTampering fenceTampering();

    /** A hand on the record of a name's holder for the spoiled-name rules, or null. */
    SpoiledNameState spoiledNameState();

    /** Clients of the store under namespaces the kit chooses, for the namespace rules, or null. */
    PrefixedStores prefixedStores();

    /** A count of the state a store keeps for names used once, for the §26 rules, or null. */
    NameLeftovers nameLeftovers();

    /** A URI with no server behind it, or null. */
    String unreachableStoreUri();

    /** The longest one store operation may take before the client gives up on it. */
    Duration operationTimeout();

    /** A count of what a client keeps for its waits, or null if the store offers none. */
    WaitResources waitResources();
}
