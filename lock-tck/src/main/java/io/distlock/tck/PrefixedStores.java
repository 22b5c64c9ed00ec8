package io.distlock.tck;

import io.distlock.LockStore;
import java.util.List;

/**
 * Clients of the store under test that keep their state under a namespace the user chooses (a Redis key prefix, a
 * ZooKeeper base path, an SQL table name), for the rules of §21: two stores with any two namespaces on one server
 * never touch each other's keys. Supplied by a backend's kit subclass whose store has such an option.
 */
public interface PrefixedStores {

    /** A namespace of this test run's own, under which the kit builds the others (never a shared store's). */
    String base();

    /**
     * What the store appends to a namespace to name its own keys, rows or nodes (a Redis store's {@code fence:},
     * {@code waiting:}, ...; an SQL store's {@code _permits}): the kit pairs {@code base() + s} with {@code base()}
     * for each, the pairs where one store's keys could be the other's.
     */
    List<String> appendedSuffixes();

    /** A new independent client of the store with namespace {@code namespace}; the kit closes it. */
    LockStore open(String namespace);
}
