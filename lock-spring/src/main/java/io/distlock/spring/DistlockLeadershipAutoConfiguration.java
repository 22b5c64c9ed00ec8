package io.distlock.spring;

import io.distlock.LeadershipListener;
import io.distlock.LockStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * Leader election from one property: {@code distlock.leadership.name=queue-poller} gives a running
 * {@link SpringLeadership} that campaigns on the {@link LockStore} once the context has started, tells every
 * {@link LeadershipListener} bean and publishes {@link LeadershipEvent}s. Backs off when the application defines its
 * own {@link SpringLeadership}.
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnBean(LockStore.class)
@ConditionalOnProperty(prefix = "distlock.leadership", name = "name")
public class DistlockLeadershipAutoConfiguration {

    /** The campaign for {@code distlock.leadership.name}; it steps down when the context stops or closes. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(SpringLeadership.class)
    public SpringLeadership distlockLeadership(LockStore store, DistlockProperties properties,
            ObjectProvider<LeadershipListener> listeners, ApplicationEventPublisher events) {
        String name = properties.getLeadership().getName();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("distlock.leadership.name must not be blank");
        }
        return new SpringLeadership(store, name, listeners.orderedStream().toList(), events);
    }
}
