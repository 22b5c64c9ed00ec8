package io.distlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.LeaseState;
import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.micrometer.LockStoreMetrics;
import io.distlock.shedlock.DistlockLockProvider;
import io.distlock.spring.integration.DistlockLockRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import net.javacrumbs.shedlock.core.LockProvider;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.support.locks.LockRegistry;

class DistlockAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(DistlockMetricsAutoConfiguration.class, DistlockAutoConfiguration.class,
                    DistlockHealthAutoConfiguration.class, DistlockIntegrationAutoConfiguration.class,
                    DistlockShedLockAutoConfiguration.class));

    private static String memUri() {
        return "distlock.uri=mem:" + UUID.randomUUID();
    }

    @Test
    void withoutUriNothingIsCreated() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(LockStore.class);
            assertThat(context).doesNotHaveBean(LockRegistry.class);
            assertThat(context).doesNotHaveBean(LockProvider.class);
            assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class);
        });
    }

    @Test
    void uriCreatesAStoreWithTheConfiguredDefaultOptionsAndEveryAdapter() {
        runner.withPropertyValues(memUri(), "distlock.lease-time=7s", "distlock.auto-renew=false").run(context -> {
            LockStore store = context.getBean(LockStore.class);
            DistributedLock lock = store.lock("orders:1");
            assertThat(lock.options().leaseTime()).isEqualTo(Duration.ofSeconds(7));
            assertThat(lock.options().autoRenew()).isFalse();
            assertThat(store.semaphore("licences", 2).options()).as("semaphores asked for by limit only too")
                    .isEqualTo(lock.options());
            LockOptions explicit = LockOptions.defaults().withLeaseTime(Duration.ofSeconds(3));
            assertThat(store.lock("orders:2", explicit).options()).as("explicit options kept").isEqualTo(explicit);
            try (Lease lease = lock.acquire()) {
                assertThat(lease.fencingToken()).isPositive();
            }
            assertThat(context).hasSingleBean(DistlockLockRegistry.class);
            assertThat(context).hasSingleBean(DistlockLockProvider.class);
            assertThat(context).hasSingleBean(DistlockHealthIndicator.class);
            assertThat(context).hasSingleBean(LockStoreMetrics.class);
        });
    }

    @Test
    void theStoreIsClosedWithTheContextAndItsLeasesAreLost() {
        AtomicReference<Lease> held = new AtomicReference<>();
        AtomicReference<LockStore> store = new AtomicReference<>();
        runner.withPropertyValues(memUri()).run(context -> {
            store.set(context.getBean(LockStore.class));
            held.set(store.get().lock("held-at-shutdown").acquire());
        });
        assertThat(held.get().state()).isEqualTo(LeaseState.LOST);
        assertThatThrownBy(() -> store.get().lock("after-close").acquire())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void aStoreDefinedByTheApplicationWinsAndTheAdaptersUseIt() {
        runner.withPropertyValues(memUri()).withUserConfiguration(OwnStore.class).run(context -> {
            assertThat(context).hasSingleBean(LockStore.class);
            assertThat(context.getBean(LockStore.class)).isSameAs(context.getBean("ownStore"));
            DistlockLockRegistry registry = context.getBean(DistlockLockRegistry.class);
            assertThat(registry.toString()).contains("own-store");
        });
    }

    @Test
    void adaptersBackOffWhenTheirLibraryIsMissing() {
        runner.withPropertyValues(memUri())
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class, LockRegistry.class,
                        LockProvider.class, MeterRegistry.class))
                .run(context -> {
                    assertThat(context).hasSingleBean(LockStore.class);
                    assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class);
                    assertThat(context).doesNotHaveBean("distlockLockRegistry");
                    assertThat(context).doesNotHaveBean("distlockLockProvider");
                    assertThat(context).doesNotHaveBean("distlockMetrics");
                });
    }

    @Test
    void theHealthIndicatorCanBeSwitchedOff() {
        runner.withPropertyValues(memUri(), "management.health.distlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class));
    }

    @Test
    void aBadLeaseTimeFailsStartupNamingTheProperty() {
        runner.withPropertyValues(memUri(), "distlock.lease-time=0s").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("distlock.lease-time");
        });
    }

    @Test
    void anUnknownSchemeFailsStartupWithTheStoresMessage() {
        runner.withPropertyValues("distlock.uri=nosuch://x").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nosuch");
        });
    }

    @Test
    void theStoreBeanRecordsIntoTheMetricsBean() {
        runner.withPropertyValues(memUri()).run(context -> {
            MeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(LockStoreMetrics.class).bindTo(registry);
            try (Lease lease = context.getBean(LockStore.class).lock("metered").acquire()) {
                assertThat(lease.lockName()).isEqualTo("metered");
                assertThat(registry.get("distlock.leases.held").gauge().value()).isEqualTo(1.0);
            }
            assertThat(registry.get("distlock.acquire").tag("outcome", "acquired").timer().count()).isEqualTo(1);
            assertThat(registry.get("distlock.held").timer().count()).isEqualTo(1);
        });
    }

    @Test
    void theStoreIsOpenedWithTheMetricsListenerSoBackgroundRenewalsAreCounted() {
        runner.withPropertyValues(memUri()).run(context -> {
            MeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(LockStoreMetrics.class).bindTo(registry);
            LockOptions shortLease = LockOptions.defaults().withLeaseTime(Duration.ofMillis(600));
            try (Lease lease = context.getBean(LockStore.class).lock("renewed", shortLease).acquire()) {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                        registry.get("distlock.renewals").tag("trigger", "background").counter().count() >= 2);
                assertThat(lease.isValid()).isTrue();
            }
        });
    }

    @Test
    void aBootApplicationFindsTheAutoConfigurationThroughItsImportsFile() {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PlainApplication.class)
                .web(WebApplicationType.NONE).logStartupInfo(false)
                .properties("spring.main.banner-mode=off", memUri()).run()) {
            assertThat(app.getBeansOfType(LockStore.class)).hasSize(1);
            assertThat(app.getBeansOfType(DistlockLockRegistry.class)).hasSize(1);
            assertThat(app.getBeansOfType(DistlockLockProvider.class)).hasSize(1);
            assertThat(app.getBeansOfType(DistlockHealthIndicator.class)).hasSize(1);
            assertThat(app.getBeansOfType(LockStoreMetrics.class)).hasSize(1);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class PlainApplication {
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnStore {
        @Bean(destroyMethod = "close")
        LockStore ownStore() {
            return LockStore.open("mem:own-store-" + UUID.randomUUID());
        }
    }
}
