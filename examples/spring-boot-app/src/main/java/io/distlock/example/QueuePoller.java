package io.distlock.example;

import io.distlock.spring.LeadershipEvent;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Work that only the leader does, started and stopped by the starter's leader election
 * ({@code distlock.leadership.name}, one property): it keeps the current term's number, the fencing token to pass to
 * what the leader writes to, or 0 while another instance leads.
 */
@Component
public class QueuePoller {

    private final AtomicLong term = new AtomicLong();

    @EventListener
    void on(LeadershipEvent event) {
        if (event instanceof LeadershipEvent.Elected) {
            term.set(event.term().fencingToken()); // start polling; return soon: this is the campaign's thread
        } else {
            term.set(0); // stop polling: the term was lost or this instance steps down
        }
    }

    /** The term this instance leads in, or 0 if it does not lead. */
    public long term() {
        return term.get();
    }
}
