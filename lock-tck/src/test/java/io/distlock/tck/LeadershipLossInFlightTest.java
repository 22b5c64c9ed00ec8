package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockStore;
import io.distlock.spi.Stores;
import io.distlock.tck.stub.Pause;
import io.distlock.tck.stub.StubBackend;
import io.distlock.tck.stub.StubBackend.Point;
import io.distlock.tck.stub.StubSpace;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A campaign whose winning grant the store lost while it was on its way (an operator's delete, a session's end) is
 * never told elected with that term: {@link LeadershipListener#elected} promises a term already held. Found by the
 * interleaving explorer ({@code --seed 277}, two campaigns of one client with the loss striking the grant in flight).
 */
class LeadershipLossInFlightTest {

    private static final Duration LONG = Duration.ofSeconds(10);

    @Test
    void aTermLostOnItsWayIsNeverElectedAndTheCampaignWinsAgain() throws Exception {
        StubSpace space = new StubSpace();
        StubBackend backend = new StubBackend(space);
        Pause granted = backend.pauseAt(Point.AFTER_GRANT);
        List<String> terms = new CopyOnWriteArrayList<>();
        CountDownLatch electedTwiceOrValid = new CountDownLatch(1);
        try (LockStore store = Stores.over(backend, "stub")) {
            try (Leadership leadership = store.leadership("x", new LeadershipListener() {
                @Override
                public void elected(Lease term) {
                    terms.add(term.fencingToken() + " " + term.state());
                    if (term.isValid() || terms.size() > 1) {
                        electedTwiceOrValid.countDown();
                    }
                }

                @Override
                public void revoked(Lease term) {
                }
            })) {
                assertThat(granted.awaitReached(LONG)).as("the first grant reached its pause").isTrue();
                assertThat(space.dropHolder("x", granted.grant().ownerToken())).isTrue();
                backend.events().lost(granted.grant(), "the test deleted its node");
                granted.resume();
                assertThat(electedTwiceOrValid.await(LONG.toMillis(), TimeUnit.MILLISECONDS))
                        .as("elected within %s", LONG).isTrue();
                assertThat(terms).as("the terms the listener was told elected with (fence, state)")
                        .singleElement().asString().endsWith(" HELD");
                assertThat(leadership.isLeader()).isTrue();
            }
        }
    }
}
