package io.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LeaseModel;
import io.distlock.LockStore;
import io.distlock.spi.Grant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the core keeps and logs about losses: nothing for grants it never registers, tokens printed plainly. */
class LossBookkeepingTest {

    @Test
    void lossesOfGrantsThatAreNeverRegisteredAreNotKept() {
        BackendLockStore plain = (BackendLockStore) LockStore.open("mem:losses-" + UUID.randomUUID());
        CountingBackend backend = new CountingBackend(plain.backend());
        backend.model = LeaseModel.SESSION;
        try (BackendLockStore store = new BackendLockStore(backend, "counted")) {
            for (int i = 0; i < 100; i++) {
                // a grant of an abandoned acquisition in a dead session: the core never registers it
                backend.events.lost(new Grant("abandoned-" + i, "token-" + i, i + 1, null), "session expired");
            }
            assertThat(store.names.lossesKept()).isZero();
        }
    }

    @Test
    void theLostLeaseLogPrintsTheFencingTokenWithoutGroupingSeparators() throws Exception {
        List<String> lines;
        try (LoggedLines logged = new LoggedLines(BackendLockStore.class)) {
            BackendLockStore plain = (BackendLockStore) LockStore.open("mem:tokens-" + UUID.randomUUID());
            CountingBackend backend = new CountingBackend(plain.backend());
            backend.model = LeaseModel.SESSION;
            backend.fenceOverride = 1_796_111_895_803_499L;
            try (BackendLockStore store = new BackendLockStore(backend, "counted")) {
                store.lock("big token").acquire();
                backend.events.sessionLost("session expired");
            }
            lines = logged.all();
        }
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("fencing token 1796111895803499"));
    }
}
