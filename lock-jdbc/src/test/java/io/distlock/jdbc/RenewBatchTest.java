package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import io.distlock.spi.Grant;
import io.distlock.spi.LockBackend;
import io.distlock.spi.Renewal;
import io.distlock.spi.Wait;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Renewal of many leases at once (more than one chunk, two lease times): every held lease is renewed, and exactly
 * the ones the store no longer has (force-released, or taken over after expiry) come back as lost.
 */
@ExtendWith(Databases.class)
class RenewBatchTest {

    private static final int LEASES = 250;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void renewsManyLeasesAndReportsExactlyTheLostOnes(String label, String uri) throws Exception {
        try (LockStore store = BackendStores.open(uri)) {
            LockBackend backend = BackendStores.backend(store, LockBackend.class);
            List<Renewal> renewals = new ArrayList<>();
            for (int i = 0; i < LEASES; i++) {
                Duration lease = Duration.ofSeconds(i % 2 == 0 ? 30 : 45);
                Grant grant = backend.acquire("batch:" + i, lease, Wait.none());
                assertThat(grant).isNotNull();
                renewals.add(new Renewal(grant, lease));
            }
            assertThat(backend.renew(renewals)).isEmpty();

            Grant forced = renewals.get(7).grant();
            Grant otherForced = renewals.get(230).grant();
            assertThat(store.admin().forceRelease(forced.name())).isTrue();
            assertThat(store.admin().forceRelease(otherForced.name())).isTrue();
            Grant taker = backend.acquire(otherForced.name(), Duration.ofSeconds(30), Wait.none());
            assertThat(taker).isNotNull();
            assertThat(taker.fencingToken()).isGreaterThan(otherForced.fencingToken());

            Set<Grant> lost = backend.renew(renewals);
            assertThat(lost).containsExactlyInAnyOrder(forced, otherForced);
            assertThat(backend.release(forced)).isFalse();
            assertThat(backend.release(otherForced)).as("the old grant cannot free the new holder").isFalse();
            assertThat(backend.release(taker)).isTrue();
            for (Renewal r : renewals) {
                if (!r.grant().equals(forced) && !r.grant().equals(otherForced)) {
                    assertThat(backend.release(r.grant())).isTrue();
                }
            }
            assertThat(store.admin().list("batch:", 1000)).isEmpty();
        }
    }
}
