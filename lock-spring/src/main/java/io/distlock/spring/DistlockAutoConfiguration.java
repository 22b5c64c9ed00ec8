package io.distlock.spring;

import io.distlock.LockStore;
import io.distlock.LockStoreListener;
import io.distlock.StoreOptions;
import io.distlock.spi.StoreUri;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Opens the {@link LockStore} named by {@code distlock.uri}, with {@code distlock.lease-time} and
 * {@code distlock.auto-renew} as the options of {@code store.lock(name)} (its default options), and closes it at
 * shutdown (which
 * releases every lease it still holds). Backs off when the application defines its own {@link LockStore}.
 */
@AutoConfiguration
@EnableConfigurationProperties(DistlockProperties.class)
public class DistlockAutoConfiguration {

    /**
     * The store: {@code LockStore.open(distlock.uri)} with the configured lock options as its
     * {@linkplain LockStore#defaultOptions() defaults} and every {@link LockStoreListener} bean (metrics) as its
     * listeners, then customized.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(LockStore.class)
    @ConditionalOnProperty(prefix = "distlock", name = "uri")
    public LockStore distlockStore(DistlockProperties properties, ObjectProvider<LockStoreListener> listeners,
            ObjectProvider<LockStoreCustomizer> customizers) {
        StoreOptions options = StoreOptions.defaults().withLockOptions(properties.toOptions());
        for (LockStoreListener listener : listeners.orderedStream().toList()) {
            options = options.withListener(listener);
        }
        StoreOptions opened = options;
        if (properties.isLazyStart()) {
            LazyLockStore lazy = new LazyLockStore(() -> openCustomized(properties.getUri(), opened, customizers),
                    StoreUri.parse(properties.getUri()).redacted(), opened.lockOptions());
            lazy.tryOpen();
            return lazy;
        }
        return openCustomized(properties.getUri(), opened, customizers);
    }

    private static LockStore openCustomized(String uri, StoreOptions options,
            ObjectProvider<LockStoreCustomizer> customizers) {
        LockStore store = LockStore.open(uri, options);
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
