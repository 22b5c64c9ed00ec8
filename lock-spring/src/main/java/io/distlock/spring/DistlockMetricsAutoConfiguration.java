package io.distlock.spring;

import io.distlock.LockStoreListener;
import io.distlock.micrometer.LockStoreMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer metrics of the store the auto-configuration opens, when lock-micrometer and Micrometer are on the class
 * path: a {@link LockStoreMetrics} bean (a {@code MeterBinder}, bound to every registry by Spring Boot's metrics
 * support), its listener, which the store is opened with, and a customizer that instruments the store with it. A
 * {@code LockStore} the application defines itself is not instrumented: open it with {@link LockStoreMetrics#open}
 * there.
 */
@AutoConfiguration(before = DistlockAutoConfiguration.class)
@ConditionalOnClass({MeterRegistry.class, LockStoreMetrics.class})
@ConditionalOnProperty(prefix = "distlock", name = "uri")
public class DistlockMetricsAutoConfiguration {

    /** The meters, tagged {@code store=distlock}. */
    @Bean
    @ConditionalOnMissingBean
    public LockStoreMetrics distlockMetrics() {
        return new LockStoreMetrics("distlock");
    }

    /** Counts the store's background renewals: the auto-configuration opens the store with every listener bean. */
    @Bean
    public LockStoreListener distlockMetricsListener(LockStoreMetrics metrics) {
        return metrics.listener();
    }

    /** Instruments the store with {@code metrics}. */
    @Bean
    public LockStoreCustomizer distlockMetricsCustomizer(LockStoreMetrics metrics) {
        return metrics::instrument;
    }
}
