package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A store that refuses a campaign's lock for good (a fence at the largest token, a key of the wrong type) ends the
 * campaign after one attempt, and says so as the store's refusal, not as a failure of distlock's own.
 */
class CampaignRefusedTest {

    private static final String REFUSAL = "the fence of lock 'x' is exhausted";

    @Test
    void aLockTheStoreRefusesForGoodEndsTheCampaignWithTheStoresReason() {
        BackendLockStore plain = (BackendLockStore) LockStore.open("mem:refused-" + UUID.randomUUID());
        AtomicInteger attempts = new AtomicInteger();
        CountingBackendBase refusing = new CountingBackendBase(plain.backend()) {
            @Override
            public Grant acquire(String name, Duration leaseTime, Wait wait) {
                attempts.incrementAndGet();
                throw new LockException(REFUSAL);
            }

            @Override
            public Set<Grant> renew(List<Renewal> renewals) {
                return delegate.renew(renewals);
            }

            @Override
            public boolean release(Grant grant) {
                return delegate.release(grant);
            }
        };
        List<String> errors;
        try (LoggedLines logged = new LoggedLines(CampaignLoop.class);
             BackendLockStore store = new BackendLockStore(refusing, "refusing");
             Leadership leadership = store.leadership("x", new LeadershipListener() {
                 @Override
                 public void elected(Lease term) {
                 }

                 @Override
                 public void revoked(Lease term) {
                 }
             })) {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !logged.atLeast(Level.SEVERE).isEmpty());
            assertThat(leadership.isLeader()).isFalse();
            errors = logged.atLeast(Level.SEVERE);
        }
        assertThat(attempts).as("attempts at a lock the store refused for good").hasValue(1);
        String said = errors.get(0);
        assertThat(said).as("what the log said").contains("'x'").contains(REFUSAL).doesNotContain("unexpectedly");
    }
}
