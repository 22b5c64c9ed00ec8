package io.distlock.spring;

import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * The leadership campaign of {@code distlock.leadership.name}, tied to the application's lifecycle: it campaigns
 * once the context has started (so every listener is ready), tells each {@link LeadershipListener} bean and publishes
 * a {@link LeadershipEvent} on election and on revocation, and steps down when the context stops or closes.
 */
public final class SpringLeadership implements Leadership, SmartLifecycle {

    private final LockStore store;
    private final String name;
    private final List<LeadershipListener> listeners;
    private final ApplicationEventPublisher events;
    /** The first and the longest wait between tries to campaign on a store that cannot be reached yet. */
    static final Duration RETRY_MIN = Duration.ofMillis(200);
    static final Duration RETRY_MAX = Duration.ofSeconds(5);

    private volatile Leadership campaign;
    private volatile boolean running;
    private Thread starter;

    SpringLeadership(LockStore store, String name, List<LeadershipListener> listeners,
            ApplicationEventPublisher events) {
        this.store = store;
        this.name = name;
        this.listeners = List.copyOf(listeners);
        this.events = events;
    }

    @Override
    public String name() {
        return name;
    }

    /** True while this application holds a term; false before the context starts and after it stops. */
    @Override
    public boolean isLeader() {
        Leadership current = campaign;
        return current != null && current.isLeader();
    }

    @Override
    public Optional<Lease> lease() {
        Leadership current = campaign;
        return current == null ? Optional.empty() : current.lease();
    }

    /**
     * Starts campaigning (called by the context after refresh). A store that cannot be reached yet (a lazily started
     * store that is down) is tried again in the background (every 200 ms, doubling up to 5 s) until it is reachable
     * or the leadership is stopped.
     */
    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        if (!tryCampaign()) {
            starter = new Thread(this::campaignWhenReachable, "distlock-leadership-start-" + name);
            starter.setDaemon(true);
            starter.start();
        }
    }

    /** Steps down if leader and stops campaigning (called by the context when it stops or closes). */
    @Override
    public synchronized void stop() {
        running = false;
        Thread waiting = starter;
        starter = null;
        if (waiting != null) {
            waiting.interrupt();
        }
        Leadership current = campaign;
        campaign = null;
        if (current != null) {
            current.close();
        }
    }

    /** True from {@link #start()} to {@link #stop()}, also while waiting for the store to be reachable. */
    @Override
    public boolean isRunning() {
        return running;
    }

    /** Campaigns now; false if the store cannot be reached yet. True also when stopped: nothing is left to do. */
    private synchronized boolean tryCampaign() {
        if (!running) {
            return true;
        }
        try {
            campaign = store.leadership(name, new Relay());
            return true;
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    private void campaignWhenReachable() {
        Duration wait = RETRY_MIN;
        while (!tryCampaign()) {
            try {
                Thread.sleep(wait.toMillis()); // a retry interval, not synchronisation: stop() interrupts it
            } catch (InterruptedException e) {
                return;
            }
            wait = wait.multipliedBy(2).compareTo(RETRY_MAX) > 0 ? RETRY_MAX : wait.multipliedBy(2);
        }
    }

    /** Same as {@link #stop()}: the bean's destroy method, for a context that is closed without being stopped. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "SpringLeadership[" + name + (isLeader() ? ", leader" : "") + "]";
    }

    /**
     * Tells the listener beans, then the event listeners; one that throws does not keep the others from being told
     * (the first exception is rethrown afterwards, and the campaign logs it).
     */
    private final class Relay implements LeadershipListener {
        @Override
        public void elected(Lease term) {
            tellAll(l -> l.elected(term), new LeadershipEvent.Elected(SpringLeadership.this, term));
        }

        @Override
        public void revoked(Lease term) {
            tellAll(l -> l.revoked(term), new LeadershipEvent.Revoked(SpringLeadership.this, term));
        }

        private void tellAll(Consumer<LeadershipListener> call, LeadershipEvent event) {
            RuntimeException first = null;
            for (LeadershipListener listener : listeners) {
                try {
                    call.accept(listener);
                } catch (RuntimeException e) {
                    first = keep(first, e);
                }
            }
            try {
                events.publishEvent(event);
            } catch (RuntimeException e) {
                first = keep(first, e);
            }
            if (first != null) {
                throw first;
            }
        }

        private static RuntimeException keep(RuntimeException first, RuntimeException next) {
            if (first == null) {
                return next;
            }
            first.addSuppressed(next);
            return first;
        }
    }
}
