package io.distlock.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.Signals;
import io.distlock.tck.fixture.ZooKeeperServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;

/** The kit's ZooKeeper fixture (the demo's embedded store): locks over its URI, pause, crash and restart from files. */
class ZooKeeperServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void itServesLocksAndComesBackFromItsOwnFilesAfterACrash() throws Exception {
        try (ZooKeeperServer server = ZooKeeperServer.start()) {
            try (LockStore store = LockStore.open(server.storeUri(Duration.ofSeconds(4), Duration.ofSeconds(4)))) {
                Optional<Lease> lease = store.lock("zk-fixture").tryAcquire(TIMEOUT);
                assertThat(lease).isPresent();
                lease.get().release();
            }
            try (CuratorFramework client = client(server)) {
                client.create().forPath("/kept", "before the crash".getBytes(StandardCharsets.UTF_8));
            }
            server.kill();
            assertThat(server.isAlive()).isFalse();
            server.restart();
            try (CuratorFramework client = client(server)) {
                assertThat(new String(client.getData().forPath("/kept"), StandardCharsets.UTF_8))
                        .isEqualTo("before the crash");
            }
        }
    }

    @Test
    void aPausedServerIsStoppedBySignalUntilResumed() throws Exception {
        try (ZooKeeperServer server = ZooKeeperServer.start()) {
            server.pause();
            await().atMost(TIMEOUT).until(() -> Signals.isStopped(server.pid()));
            server.resume();
            await().atMost(TIMEOUT).until(() -> !Signals.isStopped(server.pid()));
            try (CuratorFramework client = client(server)) {
                assertThat(client.checkExists().forPath("/")).isNotNull();
            }
        }
    }

    private static CuratorFramework client(ZooKeeperServer server) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(server.connectString(), 10_000, 10_000,
                new RetryOneTime(500));
        client.start();
        assertThat(client.blockUntilConnected(60, TimeUnit.SECONDS)).isTrue();
        return client;
    }
}
