package io.distlock.spring;

import io.distlock.Lease;
import org.springframework.context.ApplicationEvent;

/**
 * Published by the auto-configured {@link SpringLeadership} when its campaign wins a term ({@link Elected}) and when
 * that term ends ({@link Revoked}), so an {@code @EventListener} method can start and stop leader-only work without
 * implementing {@link io.distlock.LeadershipListener}. Listeners run on the campaign's distlock thread, one event
 * after the other; a term's {@code Revoked} always follows its {@code Elected}.
 */
public abstract sealed class LeadershipEvent extends ApplicationEvent
        permits LeadershipEvent.Elected, LeadershipEvent.Revoked {

    private final transient Lease term;

    private LeadershipEvent(SpringLeadership source, Lease term) {
        super(source);
        this.term = term;
    }

    /** The leadership's name ({@code distlock.leadership.name}). */
    public String name() {
        return ((SpringLeadership) getSource()).name();
    }

    /** The term: a lease whose fencing token is the term number, to pass to what the leader writes to. */
    public Lease term() {
        return term;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name() + ", term " + term.fencingToken() + "]";
    }

    /** This application became the leader. */
    public static final class Elected extends LeadershipEvent {
        Elected(SpringLeadership source, Lease term) {
            super(source, term);
        }
    }

    /** This application's term ended (lost, or stepped down at shutdown): stop acting as leader. */
    public static final class Revoked extends LeadershipEvent {
        Revoked(SpringLeadership source, Lease term) {
            super(source, term);
        }
    }
}
