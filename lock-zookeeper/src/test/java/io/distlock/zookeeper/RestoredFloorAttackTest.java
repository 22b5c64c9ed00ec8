package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review r7 attack on {@link FenceFloor}'s promise that after a restore "the server clock puts the next token past
 * every token granted before": it holds while tokens stay at or below the server clock, not once a name's fence was
 * moved ahead of it (an operator's floor, which the store documents and keeps: {@code operator-exhaust} in the
 * explorer writes one). The backup holds the moved floor; the grants after it are lost with the restore.
 */
class RestoredFloorAttackTest {

    /** About 11.6 days ahead of the server clock in microseconds. */
    private static final long AHEAD = 1_000_000_000_000L;

    @TempDir
    Path directory;

    @Test
    void aTokenGrantedAfterTheBackupIsNotGrantedAgainAfterTheRestoreOfAFloorAheadOfTheClock() throws Exception {
        try (RestorableServer server = RestorableServer.start(directory)) {
            String uri = TestServers.uri(server.connectString(), "restored", Duration.ofSeconds(4),
                    Duration.ofSeconds(4));
            String parent = ZooKeeperBackend.parentPath("x");
            long seen;
            try (LockStore store = LockStore.open(uri);
                    CuratorFramework raw = TestServers.rawClient(server.connectString(), "restored")) {
                Lease first = store.lock("x").acquire(); // the parent exists while we move its floor
                raw.setData().forPath(parent, FenceFloor.encode(System.currentTimeMillis() * 1000 + AHEAD));
                first.release();
                server.backUp();
                try (Lease lease = store.lock("x").acquire()) {
                    seen = lease.fencingToken();
                }
            }
            server.restoreOlderCopy();
            try (LockStore store = LockStore.open(uri); Lease lease = store.lock("x").acquire()) {
                long after = lease.fencingToken();
                // Z9 is open: reported as skipped, naming its row, until the fix makes this pass
                Assumptions.assumeTrue(after > seen, () -> "Z9 (open, lock-tck/DEFECTS.md): token " + after
                        + " after the restore of a floor ahead of the clock, not above token " + seen);
                assertThat(after).as("the token after the restore, after token %d was granted", seen)
                        .isGreaterThan(seen);
            }
        }
    }
}
