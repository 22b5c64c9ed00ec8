package io.distlock.spring;

import io.distlock.StoreUnavailableException;
import java.lang.reflect.InvocationTargetException;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns a failure to open the store at start-up (the {@code distlockStore} bean) into Spring Boot's "APPLICATION
 * FAILED TO START" report: the store's own message as the description, and what to do as the action (set
 * {@code jedis.version} on Jedis 7, start the store or set {@code distlock.lazy-start}, correct the property), instead
 * of a stack of bean-creation exceptions with the reason at the bottom.
 */
public final class DistlockStoreFailureAnalyzer implements FailureAnalyzer {

    /** The bean {@link DistlockAutoConfiguration} opens the store in. */
    static final String STORE_BEAN = "distlockStore";

    private static final String JEDIS_ADVICE = "set <jedis.version>";

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BeanCreationException creation && STORE_BEAN.equals(creation.getBeanName())) {
                Throwable root = thrownByTheFactoryMethod(creation);
                String message = String.valueOf(root.getMessage());
                int advice = message.indexOf(JEDIS_ADVICE);
                if (advice > 0) {
                    return new FailureAnalysis("distlock could not open its store: "
                            + message.substring(0, advice).replaceAll("[:;,\\s]+$", "") + ".",
                            "S" + message.substring(advice + 1) + ".", failure);
                }
                return new FailureAnalysis("distlock could not open its store: " + message, action(root), failure);
            }
        }
        return null;
    }

    /** The first cause that is not Spring's wrapping: what opening the store threw. */
    private static Throwable thrownByTheFactoryMethod(BeanCreationException creation) {
        Throwable t = creation;
        while (t.getCause() != null && (t instanceof BeansException || t instanceof InvocationTargetException)) {
            t = t.getCause();
        }
        return t;
    }

    private static String action(Throwable root) {
        if (root instanceof StoreUnavailableException) {
            return "Start the store or correct distlock.uri; or set distlock.lazy-start=true to start while the store "
                    + "is down (health DOWN, calls fail until it is reachable).";
        }
        if (root instanceof IllegalArgumentException) {
            return "Correct the property the description names (store URIs and their options: docs/stores.md).";
        }
        return "Check distlock.uri, and that the store's module (lock-redis, lock-zookeeper, or lock-jdbc with your "
                + "JDBC driver) is on the class path.";
    }
}
