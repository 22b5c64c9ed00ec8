package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #33's waiters, among stores of one JVM on one table (they share release wake-ups): a release wakes one other
 * store's waiter, not all of them, so each hand-off costs one acquire statement however many stores wait. With the
 * poll pause at 30-60 s no waiter polls during the test: every attempt after a waiter's first is a wake-up. Counted
 * on the wire (MariaDB via Connector/J), through a proxy.
 */
@ExtendWith(Databases.class)
class WaitersOfManyStoresTest {

    private static final int WAITERS = 8;
    private static final String SLOW_POLL = "distlock.pollMinMillis=60000&distlock.pollMaxMillis=60000";

    @Test
    void eachHandOffWakesOneWaitingStore() throws Exception {
        String table = Databases.uniqueTable("herd");
        String direct = Databases.withOptions(Databases.mysql(), "distlock.table=" + table + "&" + SLOW_POLL);
        ExecutorService threads = Executors.newFixedThreadPool(WAITERS);
        List<LockStore> stores = new ArrayList<>();
        try (RequestCountingProxy proxy = new RequestCountingProxy(direct, "INSERT INTO " + table + " ")) {
            for (int i = 0; i <= WAITERS; i++) {
                stores.add(LockStore.open(proxy.route(direct)));
            }
            Lease held = stores.get(0).lock("herd").tryAcquire(Duration.ZERO).orElseThrow();
            List<Future<Boolean>> waiters = new ArrayList<>();
            for (int i = 1; i <= WAITERS; i++) {
                LockStore store = stores.get(i);
                waiters.add(threads.submit(() -> {
                    Optional<Lease> got = store.lock("herd").tryAcquire(Duration.ofSeconds(20));
                    got.ifPresent(Lease::release);
                    return got.isPresent();
                }));
            }
            // the holder's grant, then each waiter's try and its waiting loop's first attempt, both refused
            await("every waiter parked").atMost(Duration.ofSeconds(20))
                    .until(() -> proxy.requests() >= 1 + 2 * WAITERS);
            int parked = proxy.requests();
            held.release();
            for (Future<Boolean> waiter : waiters) {
                assertThat(waiter.get(30, TimeUnit.SECONDS)).as("a waiter got the lock in turn").isTrue();
            }
            // one attempt per hand-off (two spare for a loaded machine); waking every waiting store at each release
            // costs 8 + 7 + ... + 1
            assertThat(proxy.requests() - parked).as("acquire statements for %d hand-offs among %d waiting stores",
                    WAITERS, WAITERS).isLessThanOrEqualTo(WAITERS + 2);
        } finally {
            threads.shutdownNow();
            for (LockStore store : stores) {
                store.close();
            }
        }
    }

    /**
     * A store queued first whose waiter gave up (its wait ended) is passed over: the release wakes the next queued
     * store, whose waiter holds the lock within seconds, not at its poll 30-60 s later.
     */
    @Test
    void aStoreWhoseWaiterGaveUpIsPassedOver() throws Exception {
        String direct = Databases.withOptions(Databases.mysql(), "distlock.table=" + Databases.uniqueTable("gone")
                + "&" + SLOW_POLL);
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (LockStore holder = LockStore.open(direct); LockStore gaveUp = LockStore.open(direct);
                LockStore waiting = LockStore.open(direct)) {
            Lease held = holder.lock("gone").tryAcquire(Duration.ZERO).orElseThrow();
            assertThat(gaveUp.lock("gone").tryAcquire(Duration.ofMillis(300))).as("a wait that ends while held")
                    .isEmpty();
            JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(direct));
            SharedSignals shared = SharedSignals.forTable(StoreUri.redact(settings.driverUrl()), settings.table());
            Future<Optional<Lease>> next = threads.submit(
                    () -> waiting.lock("gone").tryAcquire(Duration.ofSeconds(20)));
            await("the second waiter parked").atMost(Duration.ofSeconds(10)).until(() -> shared.hasWaiters("gone"));
            long released = System.nanoTime();
            held.release();
            Optional<Lease> got = next.get(30, TimeUnit.SECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - released);
            assertThat(got).as("the waiter behind the one that gave up holds the lock").isPresent();
            assertThat(took).as("woken by the release, not by its poll").isLessThan(Duration.ofSeconds(5));
            got.get().release();
        } finally {
            threads.shutdownNow();
        }
    }
}
