package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Features;
import io.distlock.Lease;
import io.distlock.LeaseModel;
import io.distlock.LockInfo;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §27 A store's {@link Features} say what it does: the kit, the CLI and the adapters read them instead of trying an
 * operation, so a statement that is wrong would skip a check or fail a user. This rule alone tries each one.
 */
public interface FeaturesRules extends TckSupport {

    @Test
    @DisplayName("§27.1 features() states what the store does: semaphores, admin view, permit listing, name and permit"
            + " limits, lease model")
    default void rule_27_1_featuresStateWhatTheStoreDoes() {
        LockStore client = tck().client();
        Features f = client.features();
        String longest = tck().name("n");
        longest = longest + "n".repeat(Math.max(0, f.maxNameLength() - longest.length()));
        String name = longest;
        assertThat(client.lock(name).name()).as("a name of maxNameLength characters").isEqualTo(name);
        assertThatThrownBy(() -> client.lock(name + "n")).as("a name one longer than maxNameLength")
                .isInstanceOf(IllegalArgumentException.class);
        if (f.semaphores()) {
            assertThat(client.semaphore(tck().name("s"), f.maxPermits()).permits()).isEqualTo(f.maxPermits());
            if (f.maxPermits() < Integer.MAX_VALUE) {
                assertThatThrownBy(() -> client.semaphore(tck().name("s"), f.maxPermits() + 1))
                        .as("a limit above maxPermits").isInstanceOf(IllegalArgumentException.class);
            }
        } else {
            assertThatThrownBy(() -> client.semaphore(tck().name("s"), 1))
                    .as("semaphores() is false").isInstanceOf(UnsupportedOperationException.class);
        }
        if (f.admin()) {
            assertThat(client.admin()).as("admin() is true").isNotNull();
            assertThat(client.admin().list(tck().name("none"), 1)).isEmpty();
            assertLeaseModelInTheAdminView(client, f.leaseModel());
            if (f.adminListsPermits()) {
                assertThat(client.admin().listPermits(tck().name("none"), 1)).isEmpty();
            } else {
                assertThatThrownBy(() -> client.admin().listPermits(tck().name("none"), 1))
                        .as("adminListsPermits() is false").isInstanceOf(UnsupportedOperationException.class);
            }
        } else {
            assertThatThrownBy(client::admin).as("admin() is false").isInstanceOf(UnsupportedOperationException.class);
        }
    }

    /**
     * The store's own record of a held lock, as its admin view lists it, against the stated lease model: a time-bound
     * lease has a time left, at most its lease time; a session-bound one has none. (Without an admin view, §5.1 catches
     * a session-bound store that states TIME, its lease outliving the lease time, and §5.2 a time-bound one that
     * states SESSION, its lease not renewed.)
     */
    private void assertLeaseModelInTheAdminView(LockStore client, LeaseModel stated) {
        String name = tck().name("lease model");
        Duration leaseTime = Duration.ofSeconds(20);
        Lease held = client.lock(name, LockOptions.defaults().withLeaseTime(leaseTime).withAutoRenew(false))
                .tryAcquire().orElseThrow(() -> new AssertionError("a free lock '" + name + "' was refused"));
        try {
            List<LockInfo> listed = client.admin().list(name, 1);
            assertThat(listed).as("the admin view of the held lock '" + name + "'").hasSize(1);
            Duration timeLeft = listed.get(0).timeLeft();
            if (stated == LeaseModel.TIME) {
                assertThat(timeLeft).as("the admin view's time left of a lease of a store stating TIME").isNotNull()
                        .isPositive().isLessThanOrEqualTo(leaseTime);
            } else {
                assertThat(timeLeft).as("the admin view's time left of a lease of a store stating SESSION").isNull();
            }
        } finally {
            held.release();
        }
    }
}
