package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockInfo;
import io.distlock.LockLostException;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The admin view (list by prefix, force-release) and password authentication, on a test-owned server started with
 * {@code --requirepass}: the right password works, a wrong one is {@link StoreUnavailableException} and no message
 * shows either password.
 */
class RedisAdminAndAuthTest {

    private static final String PASSWORD = "s3cret-" + UUID.randomUUID().toString().substring(0, 8);
    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer("--requirepass", PASSWORD);

    private static String uri(String password) {
        return "redis://:" + password + "@127.0.0.1:" + server.port() + "?timeout=2s";
    }

    @Test
    void adminListsHeldLocksWithoutTokensAndForceReleases() {
        try (LockStore store = LockStore.open(uri(PASSWORD))) {
            Lease a = store.lock("jobs:a").tryAcquire().orElseThrow();
            Lease b = store.lock("jobs:b").tryAcquire().orElseThrow();
            Lease other = store.lock("other").tryAcquire().orElseThrow();

            List<LockInfo> jobs = store.admin().list("jobs:", 10);
            assertThat(jobs).extracting(LockInfo::name).containsExactly("jobs:a", "jobs:b");
            LockInfo first = jobs.get(0);
            assertThat(first.fencingToken()).isEqualTo(a.fencingToken());
            assertThat(first.timeLeft()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
            assertThat(first.owner()).contains(String.valueOf(ProcessHandle.current().pid())).doesNotContain("|");
            assertThat(store.admin().list("jobs:", 1)).hasSize(1);
            assertThat(store.admin().list("", 10)).hasSize(3);

            assertThat(store.admin().forceRelease("jobs:a")).isTrue();
            assertThat(store.admin().forceRelease("jobs:a")).isFalse();
            assertThatThrownBy(a::release).isInstanceOf(LockLostException.class);
            assertThat(store.admin().list("jobs:", 10)).extracting(LockInfo::name).containsExactly("jobs:b");
            b.release();
            other.release();
        }
    }

    @Test
    void wrongPasswordIsUnavailableAndNeverShown() {
        assertThatThrownBy(() -> LockStore.open(uri("wrong-" + PASSWORD)))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("authentication")
                .hasMessageNotContaining(PASSWORD);
        try (LockStore store = LockStore.open(uri(PASSWORD))) {
            assertThat(store.toString()).doesNotContain(PASSWORD);
            store.lock("auth").tryAcquire().orElseThrow().release();
        }
    }
}
