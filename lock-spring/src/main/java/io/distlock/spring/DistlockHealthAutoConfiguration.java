package io.distlock.spring;

import io.distlock.LockStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/** A {@code distlock} health indicator (store reachable) when Spring Boot's health support is on the class path. */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(LockStore.class)
@ConditionalOnEnabledHealthIndicator("distlock")
public class DistlockHealthAutoConfiguration {

    /** Reports UP when a probe lock can be taken and released in the store. */
    @Bean
    @ConditionalOnMissingBean(name = "distlockHealthIndicator")
    public DistlockHealthIndicator distlockHealthIndicator(LockStore store) {
        return new DistlockHealthIndicator(store);
    }
}
