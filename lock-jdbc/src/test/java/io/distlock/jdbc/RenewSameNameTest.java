package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.Grant;
import io.distlock.spi.Renewal;
import io.distlock.spi.StoreUri;
import io.distlock.spi.Wait;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code LockBackend.renew} answers for each grant it is given, also for two grants of one name in one call (a grant
 * handed over, or lost and granted again, while a renewal of the old one is in the same batch): the stale one is
 * lost, the live one renewed, whatever their order (found by the r10 safety review: the SQL store kept one token
 * per name and answered for the name).
 */
@ExtendWith(Databases.class)
class RenewSameNameTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.distlock.jdbc.Stores#all")
    void aStaleAndALiveGrantOfOneNameAreAnsweredEachForItself(String label, String uri) throws Exception {
        Duration lease = Duration.ofSeconds(30);
        try (JdbcBackend backend = (JdbcBackend) new JdbcLockStoreProvider().open(StoreUri.parse(uri))) {
            Grant live = backend.acquire("same", lease, Wait.none());
            assertThat(live).isNotNull();
            Grant stale = new Grant("same", "stale-" + live.ownerToken(), live.fencingToken() - 1, null);
            Set<Grant> staleLast = backend.renew(List.of(new Renewal(live, lease), new Renewal(stale, lease)));
            assertThat(staleLast).as("lost on %s, the stale grant last", label).containsExactly(stale);
            Set<Grant> staleFirst = backend.renew(List.of(new Renewal(stale, lease), new Renewal(live, lease)));
            assertThat(staleFirst).as("lost on %s, the stale grant first", label).containsExactly(stale);
            assertThat(backend.release(live)).as("the live grant still holds on %s", label).isTrue();
        }
    }
}
