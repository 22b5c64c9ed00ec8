package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.LockStore;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * {@code distlock.integration.key-prefix} keeps the auto-configured {@link LockRegistry}'s keys apart from the names
 * the application locks through {@code store.lock(...)}: key {@code k} is the store's lock {@code prefix + k}.
 */
class RegistryPrefixTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DistlockAutoConfiguration.class, DistlockIntegrationAutoConfiguration.class));

    @Test
    void theRegistryLocksPrefixedNames() {
        runner.withPropertyValues("distlock.uri=mem:" + UUID.randomUUID(), "distlock.integration.key-prefix=si:")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    LockStore store = context.getBean(LockStore.class);
                    Lock lock = context.getBean(LockRegistry.class).obtain("orders");
                    lock.lock();
                    try {
                        assertThat(tryElsewhere(store, "si:orders")).as("the registry's lock, prefixed").isEmpty();
                        Optional<Lease> plain = tryElsewhere(store, "orders");
                        assertThat(plain).as("the same key through store.lock").isPresent();
                        plain.get().release();
                    } finally {
                        lock.unlock();
                    }
                });
    }

    @Test
    void withoutThePropertyKeysAreLockNames() {
        runner.withPropertyValues("distlock.uri=mem:" + UUID.randomUUID()).run(context -> {
            LockStore store = context.getBean(LockStore.class);
            Lock lock = context.getBean(LockRegistry.class).obtain("orders");
            lock.lock();
            try {
                assertThat(tryElsewhere(store, "orders")).isEmpty();
            } finally {
                lock.unlock();
            }
        });
    }

    private static Optional<Lease> tryElsewhere(LockStore store, String name) throws Exception {
        return CompletableFuture.supplyAsync(() -> store.lock(name).tryAcquire()).get(10, TimeUnit.SECONDS);
    }
}
