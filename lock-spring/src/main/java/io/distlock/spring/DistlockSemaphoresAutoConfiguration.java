package io.distlock.spring;

import io.distlock.Arguments;
import io.distlock.LockStore;
import io.distlock.DistributedSemaphore;
import io.distlock.StoreUnavailableException;
import java.util.Map;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * One {@link DistributedSemaphore} bean per {@code distlock.semaphores.NAME=PERMITS} entry, named NAME, on the
 * {@link LockStore} bean: {@code distlock.semaphores.partner-api=2} lets a component take
 * {@code @Qualifier("partner-api") DistributedSemaphore} and share two permits with every other client of the store.
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnBean(LockStore.class)
@Import(DistlockSemaphoresAutoConfiguration.Registrar.class)
public class DistlockSemaphoresAutoConfiguration {

    /** The property whose entries become semaphore beans. */
    static final String PROPERTY = "distlock.semaphores";

    /**
     * The store's semaphore; a {@link LazySemaphore} when the store cannot be reached yet (only a lazily started
     * store lets the application get this far while it is down).
     */
    static DistributedSemaphore semaphore(LockStore store, String name, int permits) {
        try {
            return store.semaphore(name, permits);
        } catch (StoreUnavailableException e) {
            return new LazySemaphore(name, permits, () -> store.semaphore(name, permits));
        }
    }

    /** Registers the beans from the property's entries; a bad entry fails the start naming it. */
    static class Registrar implements ImportBeanDefinitionRegistrar, EnvironmentAware, BeanFactoryAware {

        private Environment environment;
        private BeanFactory beanFactory;

        @Override
        public void setEnvironment(Environment environment) {
            this.environment = environment;
        }

        @Override
        public void setBeanFactory(BeanFactory beanFactory) {
            this.beanFactory = beanFactory;
        }

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            Map<String, Integer> semaphores = Binder.get(environment)
                    .bind(PROPERTY, Bindable.mapOf(String.class, Integer.class)).orElse(Map.of());
            semaphores.forEach((name, permits) -> {
                if (permits == null || permits < 1) {
                    throw new IllegalArgumentException(PROPERTY + "." + name + " (the permits of semaphore "
                            + Arguments.quoted(name) + ") must be at least 1, got " + permits);
                }
                RootBeanDefinition definition = new RootBeanDefinition(DistributedSemaphore.class,
                        () -> semaphore(beanFactory.getBean(LockStore.class), name, permits));
                definition.setDescription("distlock semaphore " + Arguments.quoted(name) + " with " + permits
                        + " permits ("
                        + PROPERTY + ")");
                registry.registerBeanDefinition(name, definition);
            });
        }
    }
}
