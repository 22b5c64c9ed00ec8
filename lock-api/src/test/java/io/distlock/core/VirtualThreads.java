package io.distlock.core;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Assumptions;

/** The virtual-thread executor of the tests that check the core does not pin; they are skipped before Java 21. */
final class VirtualThreads {

    private VirtualThreads() {
    }

    /** A new virtual thread per task (looked up reflectively: the build's baseline is Java 17). */
    static ExecutorService executor() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            Assumptions.abort("skipped: virtual threads need Java 21+, running " + Runtime.version());
            throw new AssertionError(e);
        }
    }
}
