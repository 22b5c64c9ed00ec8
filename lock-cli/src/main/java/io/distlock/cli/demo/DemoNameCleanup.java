package io.distlock.cli.demo;

import io.distlock.redis.RedisNameCleanup;
import io.distlock.spi.StoreUri;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/**
 * Deletes what the stores keep for the names of one demo run (every name starts with the run's
 * {@link DemoContext#namePrefix()}), so a demo on a shared server leaves nothing behind: on Redis through
 * {@link RedisNameCleanup}; on ZooKeeper the names' nodes under {@code /distlock} and {@code /distlock-semaphores}
 * (below the URI's chroot); on SQL the names' rows of the lock table and of its permit table. It knows the ZooKeeper
 * and SQL stores' layouts (lock-zookeeper's and lock-jdbc's READMEs describe them); {@code DemoNameCleanupTest}
 * checks it against the stores. Deleting a name's fencing counter would let a later holder of that name start low
 * again, so it is only for names nothing takes again: a prefix unique to one run.
 */
final class DemoNameCleanup {

    /** Names the ZooKeeper store writes as they are (no {@code %XX} escapes) and SQL's LIKE takes literally. */
    private static final Pattern PLAIN_PREFIX = Pattern.compile("[A-Za-z0-9:-]+");

    /** The ZooKeeper store's parents of lock and semaphore nodes. */
    private static final List<String> ZOOKEEPER_ROOTS = List.of("/distlock", "/distlock-semaphores");

    /** How long the ZooKeeper client may take to connect. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private DemoNameCleanup() {
    }

    /**
     * Deletes the store's records of every name starting with {@code namePrefix}; returns one sentence saying what
     * it deleted, or that the store keeps nothing to delete ({@code mem:}).
     *
     * @throws IllegalArgumentException if the prefix is not made of letters, digits, ':' and '-'
     * @throws IllegalStateException if the store could not be reached or refused a deletion
     */
    static String deleteNames(String storeUri, String namePrefix) {
        if (namePrefix == null || !PLAIN_PREFIX.matcher(namePrefix).matches()) {
            throw new IllegalArgumentException("a demo name prefix to delete must be letters, digits, ':' and '-', got '"
                    + namePrefix + "'");
        }
        StoreUri uri = StoreUri.parse(storeUri);
        String scheme = uri.scheme();
        if (scheme.startsWith("redis") || scheme.equals("redlock")) {
            long deleted = RedisNameCleanup.deleteNames(storeUri, namePrefix);
            return "Deleted the run's " + deleted + " keys (names " + namePrefix + "*) from Redis.";
        }
        if (scheme.equals("zookeeper") || scheme.equals("zk")) {
            return "Deleted the run's " + deleteZooKeeperNodes(uri, namePrefix) + " nodes (names " + namePrefix
                    + "*) from ZooKeeper.";
        }
        if (scheme.equals("jdbc")) {
            return "Deleted the run's " + deleteSqlRows(storeUri, uri, namePrefix) + " rows (names " + namePrefix
                    + "*) from the lock tables.";
        }
        return "The store keeps nothing to delete (" + scheme + ":).";
    }

    private static int deleteZooKeeperNodes(StoreUri uri, String namePrefix) {
        StoreUri.Authority authority = uri.authority();
        String chroot = authority.path() == null || authority.path().isEmpty() ? ""
                : "/" + authority.path().replaceAll("/+$", "");
        String connect = authority.hosts().stream().map(h -> h.host() + ":" + h.portOr(2181))
                .collect(Collectors.joining(",")) + chroot;
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder().connectString(connect)
                .retryPolicy(new RetryOneTime(100)).connectionTimeoutMs((int) CONNECT_TIMEOUT.toMillis())
                .sessionTimeoutMs((int) CONNECT_TIMEOUT.multipliedBy(2).toMillis());
        if (authority.user() != null && !authority.user().isEmpty()) {
            builder.authorization("digest", (authority.user() + ":" + authority.password())
                    .getBytes(StandardCharsets.UTF_8));
        }
        try (CuratorFramework client = builder.build()) {
            client.start();
            if (!client.blockUntilConnected((int) CONNECT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("ZooKeeper at " + uri.redacted() + " not reached within "
                        + CONNECT_TIMEOUT.toSeconds() + " s");
            }
            int deleted = 0;
            for (String root : ZOOKEEPER_ROOTS) {
                if (client.checkExists().forPath(root) == null) {
                    continue;
                }
                for (String child : client.getChildren().forPath(root)) {
                    if (child.startsWith(namePrefix)) {
                        client.delete().deletingChildrenIfNeeded().forPath(root + "/" + child);
                        deleted++;
                    }
                }
            }
            return deleted;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while deleting the run's nodes from ZooKeeper", e);
        } catch (IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("could not delete the run's nodes from ZooKeeper at " + uri.redacted()
                    + ": " + e, e);
        }
    }

    private static int deleteSqlRows(String storeUri, StoreUri uri, String namePrefix) {
        String table = uri.param("distlock.table", "distlock_locks");
        List<String> tables = List.of(table, table + "_permits");
        try (Connection c = DriverManager.getConnection(FencingDatabase.withoutDistlockOptions(storeUri))) {
            int deleted = 0;
            for (String t : tables) {
                if (!exists(c.getMetaData(), t)) {
                    continue; // the permit table is created on a semaphore's first use
                }
                try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + t + " WHERE name LIKE ?")) {
                    delete.setString(1, namePrefix + "%");
                    deleted += delete.executeUpdate();
                }
            }
            return deleted;
        } catch (SQLException e) {
            throw new IllegalStateException("could not delete the run's rows from " + tables + " at " + uri.redacted()
                    + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code table} ({@code schema.table} or plain) exists, in the case the database stores names in. */
    private static boolean exists(DatabaseMetaData meta, String table) throws SQLException {
        int dot = table.indexOf('.');
        String schema = dot < 0 ? null : table.substring(0, dot);
        String name = dot < 0 ? table : table.substring(dot + 1);
        List<String> spellings = new ArrayList<>(List.of(name, name.toLowerCase(Locale.ROOT),
                name.toUpperCase(Locale.ROOT)));
        for (String spelling : spellings) {
            String schemaSpelling = schema == null ? null
                    : spelling.equals(name.toUpperCase(Locale.ROOT)) ? schema.toUpperCase(Locale.ROOT) : schema;
            try (ResultSet rs = meta.getTables(null, schemaSpelling, spelling, null)) {
                if (rs.next()) {
                    return true;
                }
            }
        }
        return false;
    }
}
