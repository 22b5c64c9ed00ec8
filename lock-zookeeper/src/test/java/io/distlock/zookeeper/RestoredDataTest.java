package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone server whose data directory is put back from an older copy (a backup restored, or a server that lost
 * its last transactions) goes on from the older copy's zxid, so the czxids it gives new nodes repeat ones it gave
 * before. Tokens of locks and of permits taken after the restore must still be greater than every token seen before.
 */
class RestoredDataTest {

    @TempDir
    Path directory;

    @Test
    void tokensAfterTheDataDirectoryIsRestoredFromAnOlderCopyExceedEveryTokenSeen() throws Exception {
        try (RestorableServer server = RestorableServer.start(directory)) {
            String uri = TestServers.uri(server.connectString(), "restored", Duration.ofSeconds(4),
                    Duration.ofSeconds(4));
            long lockBefore = 0;
            long permitBefore = 0;
            try (LockStore store = LockStore.open(uri)) {
                lockBefore = Math.max(lockBefore, take(store, "lock", false));
                permitBefore = Math.max(permitBefore, take(store, "permits", true));
                server.backUp();
                for (int i = 0; i < 5; i++) {
                    lockBefore = Math.max(lockBefore, take(store, "lock", false));
                    permitBefore = Math.max(permitBefore, take(store, "permits", true));
                }
            }
            server.restoreOlderCopy();
            try (LockStore store = LockStore.open(uri)) {
                long lockAfter = take(store, "lock", false);
                long permitAfter = take(store, "permits", true);
                assertThat(lockAfter).as("the lock's token after the restore, after token %d was seen", lockBefore)
                        .isGreaterThan(lockBefore);
                assertThat(permitAfter).as("the permit's token after the restore, after token %d was seen",
                        permitBefore).isGreaterThan(permitBefore);
            }
        }
    }

    private static long take(LockStore store, String name, boolean permit) throws InterruptedException {
        try (Lease lease = permit ? store.semaphore(name, 2).acquire() : store.lock(name).acquire()) {
            return lease.fencingToken();
        }
    }
}
