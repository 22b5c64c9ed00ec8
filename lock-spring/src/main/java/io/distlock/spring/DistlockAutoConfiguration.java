package io.distlock.spring;

import io.distlock.LockOptions;
import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Opens the {@link LockStore} named by {@code distlock.uri}, with {@code distlock.lease-time} and
 * {@code distlock.auto-renew} as the options of {@code store.lock(name)}, and closes it at shutdown (which
 * releases every lease it still holds). Backs off when the application defines its own {@link LockStore}.
 */
@AutoConfiguration
@EnableConfigurationProperties(DistlockProperties.class)
public class DistlockAutoConfiguration {

    /**
     * The store: {@code LockStore.open(distlock.uri)}, customized, and outermost the configured default options
     * (customizers see the store {@code open} returned, so metrics can attach to its renewal thread).
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(LockStore.class)
    @ConditionalOnProperty(prefix = "distlock", name = "uri")
    public LockStore distlockStore(DistlockProperties properties, ObjectProvider<LockStoreCustomizer> customizers) {
        LockOptions defaults = properties.toOptions();
        if (properties.isLazyStart()) {
            LazyLockStore lazy = new LazyLockStore(() -> openCustomized(properties.getUri(), customizers),
                    StoreUri.parse(properties.getUri()).redacted());
            lazy.tryOpen();
            return new DefaultOptionsLockStore(lazy, defaults);
        }
        return new DefaultOptionsLockStore(openCustomized(properties.getUri(), customizers), defaults);
    }

    private static LockStore openCustomized(String uri, ObjectProvider<LockStoreCustomizer> customizers) {
        LockStore store = LockStore.open(uri);
        try {
            for (LockStoreCustomizer customizer : customizers.orderedStream().toList()) {
                store = customizer.customize(store);
            }
            return store;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }
}
