package io.distlock.cli.demo;

import io.distlock.jdbc.SqlNameCleanup;
import io.distlock.redis.RedisNameCleanup;
import io.distlock.spi.StoreUri;
import io.distlock.zookeeper.ZooKeeperNameCleanup;
import java.util.regex.Pattern;

/**
 * Deletes what the stores keep for the names of one demo run (every name starts with the run's
 * {@link DemoContext#namePrefix()}), so a demo on a shared server leaves nothing behind: each store module's own
 * cleanup ({@link RedisNameCleanup}, {@link ZooKeeperNameCleanup}, {@link SqlNameCleanup}) knows its layout. Deleting
 * a name's fencing counter would let a later holder of that name start low again, so it is only for names nothing
 * takes again: a prefix unique to one run.
 */
final class DemoNameCleanup {

    /** What a demo run's prefix looks like: anything else is a mistake that could match names of other programs. */
    private static final Pattern PLAIN_PREFIX = Pattern.compile("[A-Za-z0-9:-]+");

    private DemoNameCleanup() {
    }

    /**
     * Deletes the store's records of every name starting with {@code namePrefix}; returns one sentence saying what
     * it deleted, or that the store keeps nothing to delete ({@code mem:}).
     *
     * @throws IllegalArgumentException if the prefix is not made of letters, digits, ':' and '-'
     * @throws io.distlock.LockException if the store could not be reached or refused a deletion
     */
    static String deleteNames(String storeUri, String namePrefix) {
        if (namePrefix == null || !PLAIN_PREFIX.matcher(namePrefix).matches()) {
            throw new IllegalArgumentException("a demo name prefix to delete must be letters, digits, ':' and '-', "
                    + "got '" + namePrefix + "'");
        }
        StoreUri uri = StoreUri.parse(storeUri);
        String scheme = uri.scheme();
        if (scheme.startsWith("redis") || scheme.equals("redlock")) {
            long deleted = RedisNameCleanup.deleteNames(storeUri, namePrefix);
            return "Deleted the run's " + deleted + " keys (names " + namePrefix + "*) from Redis.";
        }
        if (scheme.equals("zookeeper") || scheme.equals("zk")) {
            return "Deleted the run's " + ZooKeeperNameCleanup.deleteNames(storeUri, namePrefix) + " nodes (names "
                    + namePrefix + "*) from ZooKeeper.";
        }
        if (scheme.equals("jdbc")) {
            return "Deleted the run's " + SqlNameCleanup.deleteNames(storeUri, namePrefix) + " rows (names "
                    + namePrefix + "*) from the lock tables.";
        }
        return "The store keeps nothing to delete (" + scheme + ":).";
    }
}
