package io.distlock.spring;

import io.distlock.LockStore;

/**
 * Wraps the {@link LockStore} the auto-configuration opens before it becomes the bean, for example to record
 * metrics. Beans of this type are applied in their {@link org.springframework.core.annotation.Order order}.
 */
@FunctionalInterface
public interface LockStoreCustomizer {

    /**
     * The store to use instead of {@code store}; closing the result must close {@code store}, and a wrapper returns
     * {@code store}'s {@link LockStore#defaultOptions()} and {@link LockStore#features()}.
     */
    LockStore customize(LockStore store);
}
