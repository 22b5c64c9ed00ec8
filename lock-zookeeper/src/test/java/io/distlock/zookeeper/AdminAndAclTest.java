package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockInfo;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.spi.OwnerTokens;
import io.distlock.tck.fixture.ClassFixture;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The operator view (list, force-release) and digest-authenticated stores whose nodes others cannot touch. */
class AdminAndAclTest {

    private static final Duration PROMPTLY = Duration.ofSeconds(3);
    private static final String SECRET = "s3cret-Pa55";

    @RegisterExtension
    static final ClassFixture<TestingServer> server = new ClassFixture<>(TestServers::server);



    private static String uri(String userInfo, String chroot) {
        return "zookeeper://" + userInfo + server.get().getConnectString() + "/" + chroot
                + "?sessionTimeout=6s&connectionTimeout=5s";
    }

    @Test
    void adminListsHoldersByPrefixAndForceReleaseTellsTheHolderAtOnce() throws Exception {
        try (LockStore holder = LockStore.open(uri("", "admin"));
                LockStore operator = LockStore.open(uri("", "admin"));
                LockStore next = LockStore.open(uri("", "admin"))) {
            String name = "jobs/nightly.report ✓";
            Lease lease = holder.lock(name).acquire();
            Lease unrelated = holder.lock("other:1").acquire();

            List<LockInfo> listed = operator.admin().list("jobs/", 10);
            assertThat(listed).hasSize(1);
            LockInfo info = listed.get(0);
            assertThat(info.name()).isEqualTo(name);
            assertThat(info.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(info.timeLeft()).as("session-bound: no time left to show").isNull();
            assertThat(info.owner()).isEqualTo(OwnerTokens.processDescription());
            assertThat(operator.admin().list("", 10)).extracting(LockInfo::name).containsExactly(name, "other:1");
            assertThat(operator.admin().list("", 1)).hasSize(1);

            CompletableFuture<LockLostException> lost = new CompletableFuture<>();
            lease.onLost(lost::complete);
            assertThat(operator.admin().forceRelease(name)).isTrue();
            assertThat(lost.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS).getMessage()).contains("deleted");
            assertThat(lease.isValid()).isFalse();
            Lease taken = next.lock(name).tryAcquire(PROMPTLY).orElseThrow();
            assertThat(taken.fencingToken()).isGreaterThan(lease.fencingToken());
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
            assertThat(taken.isValid()).isTrue();
            taken.release();
            assertThat(operator.admin().forceRelease(name)).as("no one holds it now").isFalse();
            assertThat(operator.admin().list("jobs/", 10)).isEmpty();
            unrelated.release();
        }
    }

    @Test
    void digestCredentialsProtectTheLockNodesFromOtherClients() throws Exception {
        try (LockStore alice = LockStore.open(uri("alice:" + SECRET + "@", "acl"));
                LockStore aliceAgain = LockStore.open(uri("alice:" + SECRET + "@", "acl"));
                LockStore anonymous = LockStore.open(uri("", "acl"));
                LockStore mallory = LockStore.open(uri("alice:wrong@", "acl"))) {
            assertThat(alice.toString()).doesNotContain(SECRET).contains("***");
            Lease lease = alice.lock("payroll").acquire();

            for (LockStore intruder : List.of(anonymous, mallory)) {
                assertThatThrownBy(() -> intruder.lock("payroll").tryAcquire(Duration.ofMillis(200)))
                        .isInstanceOf(LockException.class).hasMessageContaining("refused")
                        .hasMessageNotContaining(SECRET);
                assertThatThrownBy(() -> intruder.admin().forceRelease("payroll"))
                        .isInstanceOf(LockException.class).hasMessageNotContaining(SECRET);
            }
            CuratorFramework raw = TestServers.rawClient(server.get().getConnectString(), "acl");
            try {
                assertThatThrownBy(() -> raw.delete().forPath(ZooKeeperBackend.parentPath("payroll")))
                        .isInstanceOf(KeeperException.NoAuthException.class);
            } finally {
                raw.close();
            }
            assertThat(lease.isValid()).as("untouched by the intruders").isTrue();

            assertThat(aliceAgain.lock("payroll").tryAcquire()).as("the same user queues normally").isEmpty();
            lease.release();
            assertThat(aliceAgain.lock("payroll").tryAcquire()).isPresent().get().satisfies(Lease::release);
        }
    }
}
