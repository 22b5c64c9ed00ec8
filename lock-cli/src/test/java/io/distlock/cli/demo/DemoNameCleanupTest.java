package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.StoreServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link DemoNameCleanup} on ZooKeeper (in-process) and SQL (the shared PostgreSQL, an in-memory H2): after a lock
 * and a semaphore permit of the run's names were taken and released, the store keeps nothing of those names, and
 * another name's records stay.
 */
class DemoNameCleanupTest {

    private static TestingServer zookeeper;

    private final String prefix = "distlock-demo:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final String other = "not-the-demo-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    @Test
    void zooKeeperKeepsNoNodeOfTheRunsNames() throws Exception {
        String chroot = "cleanup-" + UUID.randomUUID().toString().substring(0, 8);
        String uri = "zookeeper://" + zookeeper.getConnectString() + "/" + chroot;
        useNames(uri);
        assertThat(zooKeeperChildren(chroot)).as("before").anyMatch(n -> n.startsWith(prefix)).contains(other);

        assertThat(DemoNameCleanup.deleteNames(uri, prefix))
                .isEqualTo("Deleted the run's 2 nodes (names " + prefix + "*) from ZooKeeper.");
        assertThat(zooKeeperChildren(chroot)).as("after").noneMatch(n -> n.startsWith(prefix)).contains(other);
    }

    @Test
    void postgresKeepsNoRowOfTheRunsNames() throws Exception {
        String table = "demo_cleanup_" + UUID.randomUUID().toString().substring(0, 8);
        String uri = StoreServers.postgres() + "&distlock.table=" + table;
        try {
            useNames(uri);
            assertThat(DemoNameCleanup.deleteNames(uri, prefix)).startsWith("Deleted the run's ")
                    .endsWith(" rows (names " + prefix + "*) from the lock tables.");
            assertThat(rows(FencingDatabase.withoutDistlockOptions(uri), table, prefix + "%")).isZero();
            assertThat(rows(FencingDatabase.withoutDistlockOptions(uri), table, other)).isOne();
        } finally {
            try (Connection c = DriverManager.getConnection(FencingDatabase.withoutDistlockOptions(uri))) {
                c.createStatement().execute("DROP TABLE IF EXISTS " + table);
                c.createStatement().execute("DROP TABLE IF EXISTS " + table + "_permits");
            }
        }
    }

    @Test
    void h2KeepsNoRowOfTheRunsNames() throws Exception {
        String url = "jdbc:h2:mem:cleanup-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        useNames(url);
        assertThat(DemoNameCleanup.deleteNames(url, prefix)).startsWith("Deleted the run's ");
        assertThat(rows(url, "distlock_locks", prefix + "%")).isZero();
        assertThat(rows(url, "distlock_locks", other)).isOne();
        assertThat(rows(url, "distlock_locks_permits", prefix + "%")).isZero();
    }

    @Test
    void aPrefixThatIsNotPlainIsRefused() {
        assertThatThrownBy(() -> DemoNameCleanup.deleteNames("mem:", "demo_%"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'demo_%'");
    }

    /** Takes and releases a lock and a permit of the run's names, and a lock of another name. */
    private void useNames(String uri) throws InterruptedException {
        try (LockStore store = LockStore.open(uri)) {
            try (Lease lock = store.lock(prefix + "points").acquire();
                    Lease permit = store.semaphore(prefix + "api", 2).acquire();
                    Lease another = store.lock(other).acquire()) {
                assertThat(List.of(lock, permit, another)).allMatch(l -> l.fencingToken() > 0);
            }
        }
    }

    private static List<String> zooKeeperChildren(String chroot) throws Exception {
        try (CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.getConnectString() + "/" + chroot,
                new RetryOneTime(100))) {
            client.start();
            List<String> children = new ArrayList<>();
            for (String root : List.of("/distlock", "/distlock-semaphores")) {
                if (client.checkExists().forPath(root) != null) {
                    children.addAll(client.getChildren().forPath(root));
                }
            }
            return children;
        }
    }

    private static int rows(String url, String table, String like) throws Exception {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE name LIKE ?")) {
            count.setString(1, like);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
