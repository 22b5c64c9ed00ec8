package io.distlock.cli.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Features;
import io.distlock.LeaseModel;
import io.distlock.LockStore;
import io.distlock.tck.StoreCapabilities;
import io.distlock.tck.fixture.ZooKeeperServer;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The kit's view of a store follows from what the opened store declares: ZooKeeper is session-bound with its
 * URI's timeout (30 s when the URI names none), the in-memory store has no clients in other JVMs, every other store
 * is time-bound. Real stores: a ZooKeeper server of its own, the shared Redis and MariaDB (a table of this test's own).
 */
class DeclaredCapabilitiesTest {

    /** What the kit works with for a store: from its features, and from what the tck command tells the kit. */
    private record Seen(LeaseModel leaseModel, Duration sessionTimeout, boolean separateJvmClients, boolean admin) {
    }

    private static Seen of(String uri, Duration override) {
        try (LockStore store = LockStore.open(uri)) {
            Features f = store.features();
            StoreCapabilities c = TckCommand.capabilities(f, uri, override);
            return new Seen(f.leaseModel(), f.leaseModel() == LeaseModel.SESSION ? c.sessionTimeout(f) : null,
                    c.separateJvmClients(), f.admin());
        }
    }

    @Test
    void zooKeeperIsSessionBoundWithTheTimeoutTheServerAgreed() {
        try (ZooKeeperServer zk = ZooKeeperServer.start()) {
            String base = "zookeeper://127.0.0.1:" + zk.port();
            Seen c = of(base + "?sessionTimeout=4s", null);
            assertThat(c.leaseModel()).isEqualTo(LeaseModel.SESSION);
            assertThat(c.sessionTimeout()).isEqualTo(Duration.ofSeconds(4));
            String zk2 = "zk://127.0.0.1:" + zk.port();
            assertThat(of(zk2, null).sessionTimeout())
                    .as("the default 30 s, clamped by this server (500 ms tick: at most 20 ticks)")
                    .isEqualTo(Duration.ofSeconds(10));
            assertThat(of(zk2, Duration.ofSeconds(6)).sessionTimeout()).isEqualTo(Duration.ofSeconds(6));
        }
    }

    @Test
    void memIsSingleJvmAndOthersAreTimeBound() {
        assertThat(of("mem:x", null).separateJvmClients()).isFalse();
        Seen redis = of("redis://127.0.0.1:6379?keyPrefix=spi-caps-" + UUID.randomUUID() + ":", null);
        assertThat(redis.leaseModel()).isEqualTo(LeaseModel.TIME);
        assertThat(redis.separateJvmClients()).isTrue();
        assertThat(redis.admin()).isTrue();
        assertThat(of("jdbc:mariadb://127.0.0.1:3306/test?user=root&distlock.table=spi_caps_locks", null)
                .leaseModel()).isEqualTo(LeaseModel.TIME);
        assertThat(of("mem:x", Duration.ofSeconds(6)).sessionTimeout()).as("no session on a time-bound store")
                .isNull();
    }
}
