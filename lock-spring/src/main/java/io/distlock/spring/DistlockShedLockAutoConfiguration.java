package io.distlock.spring;

import io.distlock.LockStore;
import io.distlock.shedlock.DistlockLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** A ShedLock {@link LockProvider} over the {@link LockStore} when lock-shedlock is on the class path. */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnClass({LockProvider.class, DistlockLockProvider.class})
@ConditionalOnBean(LockStore.class)
public class DistlockShedLockAutoConfiguration {

    /** The provider; closed at shutdown, which releases the locks it keeps for lockAtLeastFor. */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean(LockProvider.class)
    public DistlockLockProvider distlockLockProvider(LockStore store) {
        return new DistlockLockProvider(store);
    }
}
