package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.process.LockClientProcess;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** §6 Fencing: every lease carries a token that strictly increases across successive holders of a name. */
public interface FencingRules extends TckSupport {

    @Test
    @DisplayName("§6.1 tokens are positive and strictly increase across successive holders on several clients")
    default void rule_6_1_tokensIncreaseAcrossClients() throws InterruptedException {
        List<LockStore> clients = List.of(tck().client(), tck().client(), tck().client());
        String name = tck().name("fence");
        long previous = 0;
        for (int i = 0; i < 30; i++) {
            try (Lease lease = clients.get(i % clients.size()).lock(name).acquire()) {
                assertThat(lease.fencingToken()).as("token of holder " + i).isGreaterThan(previous).isPositive();
                previous = lease.fencingToken();
            }
        }
    }

    @Test
    @DisplayName("§6.2 tokens strictly increase across JVMs")
    default void rule_6_2_tokensIncreaseAcrossJvms() throws InterruptedException {
        Tck.assumeSeparateJvms(tck());
        LockStore local = tck().client();
        String name = tck().name("jvm fence");
        List<Long> tokens = new ArrayList<>();
        try (LockClientProcess remote = LockClientProcess.start(tck().storeUri(), "remote")) {
            for (int i = 0; i < 3; i++) {
                try (Lease lease = local.lock(name).acquire()) {
                    tokens.add(lease.fencingToken());
                }
                tokens.add(remote.acquire(name, Tck.SHORT_LEASE.multipliedBy(10), true, Tck.HANG));
                remote.send("release");
                remote.expect("RELEASED", Tck.HANG);
            }
        }
        assertThat(tokens).isSorted().doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("§6.3 a reentrant acquisition returns the same token")
    default void rule_6_3_reentrantAcquireKeepsToken() throws InterruptedException {
        LockStore store = tck().client();
        String name = tck().name("nested fence");
        try (Lease outer = store.lock(name).acquire(); Lease inner = store.lock(name).acquire()) {
            assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
        }
    }

    @Test
    @DisplayName("§6.4 a holder that took over an expired lock gets a larger token than the expired one")
    default void rule_6_4_takeoverAfterExpiryGetsLargerToken() throws InterruptedException {
        Tck.assumeTimeBound(tck());
        LockStore a = tck().client();
        LockStore b = tck().client();
        String name = tck().name("takeover fence");
        Lease expired = a.lock(name, Tck.expiring()).acquire();
        Lease next = b.lock(name).tryAcquire(Tck.deadHolderBound(tck(), Tck.SHORT_LEASE)).orElseThrow();
        assertThat(next.fencingToken()).isGreaterThan(expired.fencingToken());
        next.release();
    }
}
