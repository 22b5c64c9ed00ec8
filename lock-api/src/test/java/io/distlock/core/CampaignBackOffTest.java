package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A campaign over a store that drops every grant on its way (an operator's script deleting the key, a session that
 * keeps expiring) is never elected, and waits between attempts instead of hammering the store.
 */
class CampaignBackOffTest {

    @Test
    void aCampaignWhoseEveryGrantIsLostOnItsWayWaitsBetweenAttempts() {
        BackendLockStore plain = (BackendLockStore) LockStore.open("mem:backoff-" + UUID.randomUUID());
        CountingBackend backend = new CountingBackend(plain.backend());
        backend.dropGrantsBeforeHandingThemOver = true;
        List<Long> elected = new CopyOnWriteArrayList<>();
        try (BackendLockStore store = new BackendLockStore(backend, "dropping")) {
            try (Leadership leadership = store.leadership("x", new LeadershipListener() {
                @Override
                public void elected(Lease term) {
                    elected.add(term.fencingToken());
                }

                @Override
                public void revoked(Lease term) {
                }
            })) {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> backend.acquireStarts.size() >= 3);
                assertThat(leadership.isLeader()).isFalse();
            }
        }
        assertThat(elected).as("terms elected").isEmpty();
        List<Long> starts = backend.acquireStarts;
        Duration gap = Duration.ofNanos(starts.get(2) - starts.get(1));
        assertThat(gap).as("between the second and third attempt (%s attempts in all)", starts.size())
                .isGreaterThanOrEqualTo(Duration.ofMillis(250));
    }
}
