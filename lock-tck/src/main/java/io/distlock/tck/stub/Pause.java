package io.distlock.tck.stub;

import io.distlock.spi.Grant;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A one-shot stop at a {@link StubBackend.Point}: the first call that reaches the point for a matching lock name
 * blocks there until the test calls {@link #resume()}, so a test can run something (an event, an extend) exactly
 * in that gap. Waits at most a minute, so a forgotten pause cannot hang a build.
 */
public final class Pause {

    private static final Duration LONGEST = Duration.ofSeconds(60);

    private final Predicate<String> names;
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch resumed = new CountDownLatch(1);
    private volatile Grant grant;

    Pause(Predicate<String> names) {
        this.names = names;
    }

    boolean matches(String name) {
        return names.test(name);
    }

    /** Blocks the calling store operation here until resumed. */
    void hold(Grant atGrant) {
        grant = atGrant;
        reached.countDown();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    resumed.await(LONGEST.toMillis(), TimeUnit.MILLISECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // a paused store call does not notice interrupts, as a blocked socket read
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits until a call reached the point; false if none did within {@code timeout}. */
    public boolean awaitReached(Duration timeout) throws InterruptedException {
        return reached.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Whether a call is (or was) held here. */
    public boolean reached() {
        return reached.getCount() == 0;
    }

    /** The grant the paused call carries (the one just granted, or one being renewed), once reached. */
    public Grant grant() {
        return grant;
    }

    /** Lets the paused call go on (and any later one that would have matched). */
    public void resume() {
        resumed.countDown();
    }
}
