package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §14 An unreachable store raises StoreUnavailableException in bounded time, never "not acquired". */
public interface AvailabilityRules extends TckSupport {

    /** How long a client may take to report an unreachable store. */
    Duration UNAVAILABLE_BOUND = Duration.ofSeconds(30);

    @Test
    @DisplayName("§14.1 a store with no server behind it raises StoreUnavailableException within a bounded time")
    default void rule_14_1_unreachableStoreRaisesStoreUnavailable() throws Exception {
        String dead = tck().unreachableStoreUri();
        Assumptions.assumeTrue(dead != null, "skipped: the store under test declares no unreachable URI");
        long start = System.nanoTime();
        CompletableFuture<Optional<Lease>> attempt = CompletableFuture.supplyAsync(() -> {
            try (LockStore store = LockStore.open(dead)) {
                return store.lock(tck().name("unreachable")).tryAcquire();
            }
        });
        assertThatThrownBy(() -> attempt.get(UNAVAILABLE_BOUND.toSeconds() + 5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(StoreUnavailableException.class);
        assertThat(Tck.elapsedSince(start)).isLessThan(UNAVAILABLE_BOUND);
    }

    @Test
    @DisplayName("§14.2 a server stopped under open clients: acquisitions raise StoreUnavailableException; after "
            + "restart they work")
    default void rule_14_2_serverOutageRaisesStoreUnavailableThenRecovers() throws Exception {
        StoreOutage outage = tck().outage();
        Assumptions.assumeTrue(outage != null, "skipped: the store under test gives the kit no server to stop");
        LockStore client = tck().client();
        String name = tck().name("outage");
        client.lock(name).tryAcquire().orElseThrow().release();
        outage.stop();
        try {
            // one attempt: the client gives up after its own operation timeout, which bounds it (the default: 30 s)
            Duration bound = tck().operationTimeout().plus(Tck.PROMPTLY);
            long start = System.nanoTime();
            CompletableFuture<Optional<Lease>> attempt = CompletableFuture.supplyAsync(
                    () -> client.lock(tck().name("during outage")).tryAcquire());
            assertThatThrownBy(() -> attempt.get(bound.toMillis() + 5_000, TimeUnit.MILLISECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(StoreUnavailableException.class);
            assertThat(Tck.elapsedSince(start)).as("one attempt while the server is down").isLessThan(bound);
        } finally {
            outage.start();
        }
        // the client reconnects on its own; Awaitility retries while it still reports the store unavailable
        Lease after = Awaitility.await("acquisition after the server is back").atMost(UNAVAILABLE_BOUND)
                .pollInterval(Duration.ofMillis(200)).ignoreException(StoreUnavailableException.class)
                .until(() -> client.lock(tck().name("after outage")).tryAcquire(Tck.PROMPTLY), Optional::isPresent)
                .orElseThrow();
        assertThat(after.isValid()).isTrue();
        after.release();
    }

    @Test
    @DisplayName("§14.3 tryAcquire(d) returns within d plus one operation timeout when the server stops mid-wait")
    default void rule_14_3_timedWaitIsBoundedWhenTheServerStopsMidWait() throws Exception {
        StoreOutage outage = tck().outage();
        Assumptions.assumeTrue(outage != null, "skipped: the store under test gives the kit no server to stop");
        LockStore holder = tck().client();
        LockStore waiting = tck().client();
        String name = tck().name("wait through outage");
        holder.lock(name).acquire();
        Duration wait = Duration.ofSeconds(2);
        Duration bound = wait.plus(tck().operationTimeout()).plus(Tck.PROMPTLY);
        long start = System.nanoTime();
        CompletableFuture<Optional<Lease>> attempt = CompletableFuture.supplyAsync(() -> {
            try {
                return waiting.lock(name).tryAcquire(wait);
            } catch (InterruptedException e) {
                throw new CompletionException(e);
            }
        });
        assertThatThrownBy(() -> attempt.get(500, TimeUnit.MILLISECONDS)).as("waiting while the lock is held")
                .isInstanceOf(TimeoutException.class);
        outage.stop();
        try {
            Optional<Lease> result;
            try {
                result = attempt.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("tryAcquire(" + wait.toMillis() + " ms) had not returned "
                        + bound.toMillis() + " ms after it started, with the server stopped mid-wait");
            } catch (ExecutionException e) {
                assertThat(e.getCause()).as("the only failure allowed").isInstanceOf(StoreUnavailableException.class);
                result = Optional.empty();
            }
            assertThat(result).as("no lease while the holder holds and the server is down").isEmpty();
            assertThat(Tck.elapsedSince(start)).isLessThan(bound);
        } finally {
            outage.start();
        }
    }
}
