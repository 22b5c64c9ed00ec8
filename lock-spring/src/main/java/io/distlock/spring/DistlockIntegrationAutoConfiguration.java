package io.distlock.spring;

import io.distlock.LockStore;
import io.distlock.spring.integration.DistlockLockRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * A Spring Integration {@link LockRegistry} over the {@link LockStore} when Spring Integration is on the class path
 * and the application defines no registry of its own: {@code LockRegistryLeaderInitiator}, aggregators and the
 * other users of a registry then lock through distlock.
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnClass(LockRegistry.class)
@ConditionalOnBean(LockStore.class)
public class DistlockIntegrationAutoConfiguration {

    /** The registry; its locks take the store's default options, its keys {@code distlock.integration.key-prefix}. */
    @Bean
    @ConditionalOnMissingBean(LockRegistry.class)
    public DistlockLockRegistry distlockLockRegistry(LockStore store, ObjectProvider<DistlockProperties> properties) {
        DistlockProperties configured = properties.getIfAvailable(DistlockProperties::new);
        String prefix = configured.getIntegration().getKeyPrefix();
        return new DistlockLockRegistry(store, prefix == null ? "" : prefix);
    }
}
